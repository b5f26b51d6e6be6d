"""Readings of sentence shapes kept between processes (core/reason/swm/english/shapecache.py): a
new process gets the readings a fresh parse would give, without parsing; a file that is corrupt,
foreign, too big or of another grammar is ignored and rewritten, never an error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sym.core.reason.swm.english import parse, question_goal, shapecache, translate
from sym.core.reason.swm.english.lexicon import tokens
from tests.english_gen import CATEGORIES, items

ROOT = Path(__file__).resolve().parents[2]
SENTENCES = [item.sentence for category in CATEGORIES for item in items(category, 12, seed=5)]

# A child process: reads SENTENCES, prints what it understood and how many Earley parses it ran.
CHILD = textwrap.dedent("""
    import json, sys
    from sym.core.reason.swm.english import parse
    from tests.prove.test_shape_cache import understood
    earley, parses = parse._parse, []
    parse._parse = lambda shape: parses.append(shape) or earley(shape)
    sentences = json.loads(sys.stdin.read())
    read = [understood(s) for s in sentences]
    print(json.dumps({"parses": len(parses), "read": read}))
""")


def understood(sentence: str):
    """What the bridge makes of a sentence, as plain data to compare across processes."""
    if sentence.endswith("?"):
        goal = question_goal(sentence)
        return None if goal is None else [goal.kind, goal.query]
    found = translate(sentence)
    return None if found is None else [found.kind, found.clauses]


def child(home: Path, sentences: list[str]) -> dict:
    proc = subprocess.run([sys.executable, "-c", CHILD], input=json.dumps(sentences), capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "SYM_HOME": str(home)}, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def tree(node) -> tuple:
    return (node.data, tuple(tree(k) for k in node.kids), tuple((t.type, t.value) for t in node.toks), node.leaves)


def shape(sentence: str) -> tuple[str, ...]:
    words = tokens(sentence)
    assert words is not None
    return tuple(w.type for w in words)


def cache_file(home: Path) -> Path:
    return home / "cache" / shapecache.FILE


@pytest.fixture
def fresh():
    """No shape remembered in this process: every read goes to the kept file (or parses)."""
    parse._readings.cache_clear()
    yield
    parse._readings.cache_clear()


def flush() -> None:
    shapecache.store(parse._key()).flush()


# -- a second process -------------------------------------------------------------------------

def test_a_new_process_reads_every_category_as_a_fresh_parse_does_without_parsing_again(sym_home):
    first = child(sym_home, SENTENCES)
    assert first["parses"] > 0 and cache_file(sym_home).is_file()
    second = child(sym_home, SENTENCES)
    assert second["parses"] == 0
    assert second["read"] == first["read"]
    assert any(r is not None for r in first["read"]) and any(r is None for r in first["read"])   # outside: refused


def test_kept_readings_are_the_readings_of_a_fresh_parse(sym_home, fresh):
    child(sym_home, SENTENCES)
    shapes = {shape(s) for s in SENTENCES if tokens(s)}
    kept = shapecache.store(parse._key())
    for s in shapes:
        entry = kept.get(s)
        assert entry is not None, s
        fresh_parse = [tree(parse._node(item, s)) for item in parse._parse(s)]
        assert [tree(n) for n in parse._checked(entry, s)] == fresh_parse     # and it passes the check


def test_translations_are_the_same_with_and_without_kept_shapes(sym_home, fresh, monkeypatch):
    without = [understood(s) for s in SENTENCES]                  # this process: parses everything
    child(sym_home, SENTENCES)                                    # keeps its shapes in the file
    parse._readings.cache_clear()
    monkeypatch.setenv("SYM_HOME", str(sym_home))
    earley = parse._parse
    monkeypatch.setattr(parse, "_parse", lambda s: pytest.fail(f"parsed {s} again"))
    monkeypatch.setattr(shapecache, "_opened", {})                # reopen: read the file the child wrote
    assert [understood(s) for s in SENTENCES] == without
    monkeypatch.setattr(parse, "_parse", earley)


# -- files that are not ours ----------------------------------------------------------------------

def _bad_files(key: str) -> dict[str, bytes]:
    def kept(entry) -> bytes:                        # a file of this grammar whose one entry is `entry`
        return json.dumps({"format": shapecache.TAG, "key": key, "shapes": {"C IS W": entry}}).encode()

    nested: list = ["word", 0]
    for _ in range(200):
        nested = ["start", nested]
    return {
        "empty": b"",
        "truncated": kept(json.dumps([["start", 0, 1, 2]]))[:40],
        "not UTF-8": b"\xff\xfe\x00garbage",
        "a list": b"[1, 2, 3]",
        "another program's": json.dumps({"format": "something else", "shapes": {}}).encode(),
        "shapes not a dict": json.dumps({"format": shapecache.TAG, "key": key, "shapes": [1, 2]}).encode(),
        "deeply nested": b"[" * 100_000 + b"]" * 100_000,
        "entry not text": kept([["start", 0, 1, 2]]),
        "entry not JSON": kept("[[\"start\", 0,"),
        "entry nested too deep for JSON": kept("[" * 5_000 + "]" * 5_000),
        "entry too long": kept(json.dumps([["start", 0, 1, 2]]) + " " * 100_000),
        "entry not a list": kept(json.dumps("boom")),
        "word out of range": kept(json.dumps([["start", 7]])),
        "negative word": kept(json.dumps([["start", -1]])),
        "bool for a word": kept(json.dumps([["start", True]])),
        "float for a word": kept(json.dumps([["start", 0.5]])),
        "unknown rule": kept(json.dumps([["os.system", 0, 1, 2]])),
        "rule not a string": kept(json.dumps([[["start"], 0]])),
        "empty reading": kept(json.dumps([[]])),
        "words out of order": kept(json.dumps([["start", ["facts", ["clauses", ["clause", ["subject", ["np", [
            "name", ["word", 2]]]], ["vp", ["cop", ["copula", 1], ["adj", ["word", 0]]]]]]]]])),
        "a word twice": kept(json.dumps([["start", 0, 0, 1]])),
        "a reading too deep": kept(json.dumps([nested])),
        "too many readings": kept(json.dumps([["start", 0]] * 1000)),
        # well-formed, but no tree of this grammar: each would make the reader fail
        "a rule without its children": kept(json.dumps([["start", ["yn_cop", 0, 1, 2]]])),
        "a word left out": kept(json.dumps([["start", ["facts", ["clauses", ["clause", ["subject", ["np", [
            "name", ["word", 0]]]], ["vp", ["cop_cont", ["adj", ["word", 2]]]]]]]]])),
        "a helper rule as a node": kept(json.dumps([["start", ["__clauses_star_0", 0, 1, 2]]])),
        "tokens of the wrong type": kept(json.dumps([["start", ["facts", ["clauses", ["clause", ["subject", [
            "np", ["name", ["word", 1]]]], ["vp", ["cop", ["copula", 0], ["adj", ["word", 2]]]]]]]]])),
        "huge": b" " * (shapecache.MAX_BYTES + 1),
    }


@pytest.mark.parametrize("kind", list(_bad_files("")))
def test_a_bad_cache_file_is_ignored_and_rewritten(sym_home, fresh, kind, monkeypatch):
    path = cache_file(sym_home)
    path.parent.mkdir(parents=True)
    path.write_bytes(_bad_files(parse._key())[kind])
    earley, parsed = parse._parse, []
    monkeypatch.setattr(parse, "_parse", lambda s: parsed.append(s) or earley(s))
    found = translate("Bob is big.")
    assert found is not None and found.clauses == ["big(bob)."]
    assert parsed == [("C", "IS", "W")]                # parsed afresh, not taken from the file
    flush()
    written = json.loads(path.read_text())
    assert written["key"] == parse._key() and json.loads(written["shapes"]["C IS W"]) == earley(("C", "IS", "W"))


def test_a_cache_path_that_is_not_a_file_is_ignored(sym_home, fresh):
    path = cache_file(sym_home)
    path.mkdir(parents=True)                         # a directory where the file should be
    assert translate("Bob is big.") is not None
    flush()                                          # cannot replace a directory: nothing written, no error
    assert path.is_dir()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_fifo_at_the_cache_path_does_not_block(sym_home, fresh):
    path = cache_file(sym_home)
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    assert translate("Bob is big.") is not None     # would hang if the file were opened for reading


def test_an_unwritable_home_keeps_nothing_and_raises_nothing(tmp_path, fresh, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("SYM_HOME", str(blocker))     # cache/ cannot be made under a file
    assert translate("Bob is big.") is not None
    flush()


def test_another_grammar_s_entries_are_not_used(sym_home, fresh):
    path = cache_file(sym_home)
    path.parent.mkdir(parents=True)
    foreign = {"format": shapecache.TAG, "key": "0" * 64, "shapes": {"C IS W": '[["start",["facts",0,1,2]]]'}}
    path.write_text(json.dumps(foreign))
    found = translate("Bob is big.")
    assert found is not None and found.clauses == ["big(bob)."]
    flush()
    written = json.loads(path.read_text())
    assert written["key"] == parse._key() and written["shapes"]["C IS W"] != foreign["shapes"]["C IS W"]


def test_the_key_changes_with_the_grammar_and_the_parser_s_version():
    key = shapecache.key_of("start: W", 1)
    assert key == shapecache.key_of("start: W", 1)
    assert key != shapecache.key_of("start: C", 1)
    assert key != shapecache.key_of("start: W", 2)
    assert parse._key() == shapecache.key_of(parse._grammar(), parse.FORMAT, parse.MAX_READINGS, parse.MAX_AMBIGUITIES)


# -- bounds and sharing ------------------------------------------------------------------------------

def test_the_file_keeps_the_newest_shapes_within_its_bounds(tmp_path, monkeypatch):
    monkeypatch.setattr(shapecache, "MAX_SHAPES", 5)
    path = tmp_path / shapecache.FILE
    kept = shapecache.Store(path, "k")
    for i in range(12):
        kept.put((f"S{i}",), '[["start",0]]')
    kept.flush()
    assert list(json.loads(path.read_text())["shapes"]) == [f"S{i}" for i in range(7, 12)]
    monkeypatch.setattr(shapecache, "MAX_BYTES", 200)
    kept.put(("LONG",) * 10, json.dumps([["start", *range(10)]]))
    kept.flush()
    assert path.stat().st_size <= 200
    assert shapecache.Store(path, "k").get(("LONG",) * 10) is not None    # the newest stays
    assert shapecache.Store(path, "k").get(("S7",)) is None                # the oldest went


def test_writes_are_batched(tmp_path, monkeypatch):
    monkeypatch.setattr(shapecache, "FLUSH_EVERY", 3)
    path = tmp_path / shapecache.FILE
    kept = shapecache.Store(path, "k")
    kept.put(("A",), "[]")
    kept.put(("B",), "[]")
    assert not path.exists()
    kept.put(("C",), "[]")
    assert set(json.loads(path.read_text())["shapes"]) == {"A", "B", "C"}


def test_processes_sharing_the_file_keep_all_their_shapes(sym_home):
    code = ("import sys\nfrom sym.core.reason.swm.english import translate\n"
            "for s in sys.stdin.read().splitlines():\n    translate(s)\n")
    groups = [[s for s in SENTENCES if not s.endswith("?")][i::4] for i in range(4)]
    env = {**os.environ, "SYM_HOME": str(sym_home)}
    procs = [subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, cwd=ROOT, env=env, text=True)
             for _ in groups]
    for proc, group in zip(procs, groups):
        proc.stdin.write("\n".join(group))
        proc.stdin.close()
    assert all(proc.wait(timeout=300) == 0 for proc in procs)
    written = json.loads(cache_file(sym_home).read_text())["shapes"]
    assert {" ".join(shape(s)) for g in groups for s in g if tokens(s)} <= set(written)


def test_importing_the_bridge_loads_no_cache_and_no_parser():
    code = ("import sys\nimport sym.core.reason.swm.english\n"
            "print(sorted(m for m in sys.modules if m.endswith('shapecache') or m.split('.')[0] in "
            "('lark', 'platformdirs', 'lemminflect')))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
