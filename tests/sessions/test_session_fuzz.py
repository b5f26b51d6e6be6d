"""`read_session` fed arbitrary bytes, text, JSON, pickles and absurd nesting, and the logs it
refuses: it must only ever give a Recording or a UserError, and nothing in a log is ever executed
(the `workdir` fixture, tests/sessions/conftest.py, checks that no payload ran)."""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sym.core.errors import UserError
from sym.core.events import InputReceived
from sym.sessions.log import EVENT_TYPES, FORMAT, SessionLog, read_session
from tests.sessions.test_session_robustness import replay_quietly, run

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


# -- fuzzing read_session ------------------------------------------------------------


class Pwn:
    def __reduce__(self):
        return (os.system, ("touch PWNED",))


PAYLOADS = [
    "__import__('os').system('touch PWNED')",
    '{"t": "input", "text": "__import__(\'os\').system(\'touch PWNED\')"}',
    '{"t": "input", "text": "__import__(\'os\')"}',
    "!!python/object/apply:os.system ['touch PWNED']",
    "${touch PWNED}", "$(touch PWNED)", "`touch PWNED`",
    '{"__class__": "os.system", "args": ["touch PWNED"]}',
]
PICKLES = [pickle.dumps(Pwn(), protocol=p) for p in (0, 2, 4, 5)] + [b"\x80\x04\x95\x1d\x00\x00\x00\x00\x00\x00\x00"]
HEADER = json.dumps({"t": "header", "seq": 1, "format": FORMAT, "sym": "0.1.0", "workspace": "default",
                     "settings": {"world": "closed"}}) + "\n"

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text() | st.sampled_from(PAYLOADS),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=25,
)
event_like = st.one_of(
    json_values,
    st.dictionaries(st.text(max_size=8), json_values, max_size=5).flatmap(
        lambda d: st.sampled_from(list(EVENT_TYPES) + ["", "Input", "header ", "__import__"]).map(
            lambda t: {**d, "t": t})),
    st.builds(lambda d, t: {**d, "t": t}, st.dictionaries(st.text(max_size=8), json_values, max_size=4),
              st.text(max_size=12)),
    st.builds(lambda text: {"t": "input", "seq": 2, "text": text}, json_values),
)


def read_or_refuse(path: Path, data: bytes):
    """read_session's answer, or None for a UserError; anything else fails the test."""
    path.write_bytes(data)
    try:
        rec = read_session(path)
    except UserError as err:
        assert str(err) and "\n" not in err.message
        return None
    assert rec.header["t"] == "header" and isinstance(rec.header["format"], int)
    assert all(isinstance(e, dict) and e["t"] in EVENT_TYPES for e in rec.events)
    assert rec.truncated == (not data.endswith(b"\n"))
    return rec


@FUZZ
@given(data=st.binary(max_size=2000) | st.sampled_from(PICKLES), after_header=st.booleans())
@example(data=b"", after_header=False)
@example(data=b"\xff\xfe\x00\n", after_header=True)
def test_arbitrary_bytes_are_read_or_refused(workdir, data, after_header):
    read_or_refuse(workdir / "fuzz.jsonl", (HEADER.encode() if after_header else b"") + data)


@FUZZ
@given(lines=st.lists(st.text(max_size=60) | st.sampled_from(PAYLOADS), max_size=12), final_newline=st.booleans(),
       after_header=st.booleans())
def test_arbitrary_text_lines_are_read_or_refused(workdir, lines, final_newline, after_header):
    text = (HEADER if after_header else "") + "\n".join(lines) + ("\n" if final_newline else "")
    read_or_refuse(workdir / "fuzz.jsonl", text.encode("utf-8", "surrogatepass"))


@FUZZ
@given(events=st.lists(event_like, max_size=8), final_newline=st.booleans(), ascii_only=st.booleans())
def test_a_valid_header_then_any_json_is_read_or_refused(workdir, events, final_newline, ascii_only):
    lines = [json.dumps(e, ensure_ascii=ascii_only) for e in events]
    data = (HEADER + "\n".join(lines) + ("\n" if final_newline and lines else "")).encode("utf-8", "surrogatepass")
    rec = read_or_refuse(workdir / "fuzz.jsonl", data)
    if rec is not None and ascii_only:   # (raw lone surrogates come back as U+FFFD)
        kept = events if final_newline or not events else events[:-1]
        assert [json.dumps(e) for e in rec.events] == [json.dumps(e) for e in kept]


@FUZZ
@given(header=st.dictionaries(st.text(max_size=8), json_values, max_size=6), fmt=json_values | st.integers())
def test_any_header_is_read_or_refused(workdir, header, fmt):
    line = json.dumps({**header, "t": "header", "format": fmt})
    read_or_refuse(workdir / "fuzz.jsonl", (line + "\n" + '{"t": "note", "seq": 2}\n').encode("utf-8", "surrogatepass"))


DEEP = 10_000


@pytest.mark.parametrize("line", [
    "[" * DEEP + "]" * DEEP,
    '{"a":' * DEEP + "1" + "}" * DEEP,
    '{"t": "input", "seq": 2, "text": ' + "[" * DEEP + "]" * DEEP + "}",
    '{"t": "memory", "seq": 2, "x": ' + '{"t": ' * DEEP + '"note"' + "}" * DEEP + "}",
    "[" * (DEEP * 10),
], ids=["list", "dict", "input-text", "memory-field", "unclosed"])
@pytest.mark.parametrize("where", ["header", "event"])
def test_absurd_nesting_is_refused_not_a_crash(workdir, line, where):
    data = (line + "\n") if where == "header" else (HEADER + line + "\n")
    assert read_or_refuse(workdir / "deep.jsonl", data.encode()) is None


def test_moderate_nesting_in_an_event_is_kept_as_data(workdir):
    nested = '{"t": "note", "seq": 2, "x": ' + "[" * 300 + "]" * 300 + "}\n"
    rec = read_or_refuse(workdir / "nested.jsonl", (HEADER + nested).encode())
    assert rec is not None and rec.events[0]["t"] == "note"


def small_log(path: Path) -> bytes:
    log = SessionLog(path, workspace="default", settings={"world": "closed"})
    for text in ["ancêtre(ann, ben).", "?- 父亲(X, 李).", "/why 🧠(x)", PAYLOADS[0]]:
        log.hear(InputReceived(text, "typed"))
        log.write("memory", op="add", input=log.current_input, id="f1", kind="fact", text=text, workspace="default")
        log.write("output", input=log.current_input, result={"command": "/assert", "ok": True, "kind": "added"})
    log.close()
    return path.read_bytes()


def test_a_log_cut_at_every_byte_offset_reads_as_its_complete_prefix(workdir):
    raw = small_log(workdir / "whole.jsonl")
    whole = read_session(workdir / "whole.jsonl")
    header_end = raw.index(b"\n") + 1
    cut = workdir / "cut.jsonl"
    for k in range(len(raw) + 1):
        rec = read_or_refuse(cut, raw[:k])
        if k < header_end:
            assert rec is None, k
            continue
        assert rec is not None, k
        complete = raw[:k].count(b"\n") - 1
        assert rec.events == whole.events[:complete], k
        assert rec.truncated == (raw[k - 1:k] != b"\n"), k


def test_replaying_logged_payloads_runs_nothing_but_sym_commands(workdir, sym_home):
    path = workdir / "payloads.jsonl"
    header = {"t": "header", "seq": 1, "format": FORMAT, "workspace": "default",
              "settings": {"world": PAYLOADS[0], PAYLOADS[0]: "x"}}
    events = [header] + [{"t": "input", "seq": i, "text": text, "source": "typed"}
                         for i, text in enumerate(PAYLOADS, start=2)]
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    report, _, _ = replay_quietly(path, verify=True)
    assert report.commands == len(PAYLOADS)
    assert all(d.endswith(": no recorded output") for d in report.differences)


# -- what a log is refused for ------------------------------------------------------------


def test_a_log_from_a_newer_sym_says_so(workdir):
    data = json.dumps({"t": "header", "seq": 1, "format": FORMAT + 1}) + "\n"
    (workdir / "future.jsonl").write_text(data)
    newer = rf"session format {FORMAT + 1}, this sym reads {FORMAT}"
    with pytest.raises(UserError, match=rf"was written by a newer sym \({newer}\)") as err:
        read_session(workdir / "future.jsonl")
    assert err.value.hint == "upgrade sym to replay it"


def test_a_log_without_a_header_is_refused(workdir):
    (workdir / "headless.jsonl").write_text('{"t": "input", "seq": 2, "text": "p(a)."}\n')
    with pytest.raises(UserError, match="is not a sym session \\(no header\\)"):
        read_session(workdir / "headless.jsonl")


def test_an_empty_log_is_refused(workdir):
    (workdir / "empty.jsonl").write_bytes(b"")
    with pytest.raises(UserError, match="is not a sym session"):
        read_session(workdir / "empty.jsonl")


@pytest.mark.parametrize("content,message", [
    (b"", "is not a sym session (no header)"),
    (b'{"t": "input", "seq": 2, "text": "p(a)."}\n', "is not a sym session (no header)"),
    (b'{"t": "header", "seq": 1, "form', "ends before its header was complete"),
    (json.dumps({"t": "header", "seq": 1, "format": FORMAT + 1}).encode() + b"\n", "was written by a newer sym"),
    (pickle.dumps(Pwn(), protocol=0), "not a session event"),
])
def test_sym_replay_refuses_an_unreadable_log_with_exit_2(sym_exe, workdir, content, message):
    path = workdir / "bad.jsonl"
    path.write_bytes(content)
    proc = run(sym_exe, "replay", str(path), "--verify")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("sym: ") and message in proc.stderr and "Traceback" not in proc.stderr


def _bound_as_before(value):
    """bound_payload as it was first written: bound every text, measure, normalise, measure again."""
    from sym.sessions.bounds import EVENT_LIMIT, _digest, bound_text, normalise

    def walk(v):
        if isinstance(v, str):
            return bound_text(v)
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [walk(x) for x in v]
        return v

    out = walk(value)
    whole = json.dumps(out, ensure_ascii=True, default=str)
    if len(whole) > EVENT_LIMIT:
        whole = json.dumps(normalise(out), ensure_ascii=True, default=str, sort_keys=True)
    if len(whole) > EVENT_LIMIT:
        keep = {k: out[k] for k in ("command", "ok", "kind") if k in out}
        return {**keep, "bounded": {"length": len(whole), "sha256": _digest(whole)}}
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 30_000), st.integers(0, 3), st.booleans())
def test_a_large_output_is_bounded_as_it_always_was(items, long_texts, stamped):
    from sym.sessions.bounds import bound_payload

    payload = {"command": "/consult", "ok": True, "kind": "added",
               "added": [{"id": f"f{i:012x}", "text": f"edge(n{i}, n{i + 1}).", "nl": "é" * (i % 3),
                          **({"created_at": 1.5 * i, "path": "/x" * 40} if stamped else {})} for i in range(items)],
               "notes": ["x" * 70_000] * long_texts, "pair": (1, "two")}
    assert bound_payload(payload) == _bound_as_before(payload)
