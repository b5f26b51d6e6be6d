"""Working memory on real Chroma: persistence across runs, workspaces, locks, documents, search,
schema, reindex, and a real `chroma run` server."""

from __future__ import annotations

import json
import os
import socket
import subprocess

import pytest

from sym.repl.dispatcher import MemoryOptions, open_shell
from sym.repl.render import to_text
from sym.repl.results import Added, Failure, Hits, Message


def run(sym_exe, *args, stdin: str = "", env=None):
    return subprocess.run([*sym_exe, *args], input=stdin, capture_output=True, text=True, timeout=120, env=env)


@pytest.fixture
def psym():
    """A shell on a persistent workspace in this test's SYM_HOME."""
    shells = []

    def make(workspace: str = "default", **options):
        shell = open_shell(MemoryOptions(workspace, **options))
        shells.append(shell)

        def type_(text: str):
            return shell.execute(text)[1]
        type_.shell = shell
        return type_

    yield make
    for shell in shells:
        shell.close()


def test_what_one_batch_run_adds_the_next_run_answers(sym_exe):
    first = run(sym_exe, "--batch", "-", stdin="parent_of(ann, ben).\nancestor(X, Y) :- parent_of(X, Y).\n")
    assert first.returncode == 0, first.stderr
    second = run(sym_exe, "--batch", "-", stdin="?- ancestor(ann, ben).\n/listing\n")
    assert second.returncode == 0, second.stderr
    assert second.stdout.splitlines()[0] == "true."
    assert "parent_of(ann, ben)." in second.stdout


def test_forgetting_persists_too(sym_exe):
    run(sym_exe, "--batch", "-", stdin="p(a).\np(b).\n")
    run(sym_exe, "--batch", "-", stdin="/forget p(a)\n")
    out = run(sym_exe, "--batch", "-", stdin="?- p(X).\n").stdout
    assert out.splitlines() == ["X = b", "1 answer."]


def test_items_keep_ids_sources_and_order_across_reopening(psym, tmp_path):
    f = tmp_path / "fam.pl"
    f.write_text("b(1).\na(2).\nc(X) :- a(X).\n")
    first = psym()
    added = first(f"/consult {f}")
    before = [(it.id, it.text, it.source) for it in added.items]
    first.shell.close()
    again = psym()
    after = [(it.id, it.text, it.source) for it in again.shell.memory.items.values()]
    assert after == before
    assert again("?- c(2).").answer.truth == "true"


def test_a_second_process_on_the_same_workspace_is_refused(sym_exe, psym):
    holder = psym("shared")
    holder("p(a).")
    proc = run(sym_exe, "--memory", "shared", "--batch", "-", stdin="p(b).\n")
    assert proc.returncode == 2
    assert "workspace 'shared' is in use" in proc.stderr and "Traceback" not in proc.stderr
    other = run(sym_exe, "--memory", "elsewhere", "--batch", "-", stdin="p(b).\n")
    assert other.returncode == 0
    holder.shell.close()
    assert run(sym_exe, "--memory", "shared", "--batch", "-", stdin="?- p(a).\n").stdout.strip() == "true."


def test_switching_and_listing_workspaces(psym):
    sym = psym()
    sym("p(a).")
    switched = sym("/workspace lab")
    assert isinstance(switched, Message) and switched.data["fact"] == 0
    sym("q(b).")
    assert isinstance(sym("?- p(a)."), Failure)          # p/1 lives in the default workspace
    names = [row[0] for row in sym("/workspaces").rows]
    assert names == ["default", "lab"]
    sym("/workspace default")
    assert sym("?- p(a).").answer.truth == "true"
    assert isinstance(sym("/workspace bad/name"), Failure)


def test_documents_load_search_and_reload_replaces_chunks(psym, tmp_path):
    sym = psym()
    doc = tmp_path / "notes.md"
    doc.write_text("# Eagles\n\nThe bald eagle eats fish.\n\n# Cows\n\nCows eat grass in the meadow.\n" * 40)
    loaded = sym(f"/load {doc}")
    assert isinstance(loaded, Message) and loaded.data["chunks"] >= 2
    chunks = loaded.data["chunks"]
    hits = sym("/search eagle fish --kind docs --k 3")
    assert isinstance(hits, Hits) and hits.hits and all(h.kind == "docs" for h in hits.hits)
    best = hits.hits[0]
    assert "eagle" in best.text and doc.read_text()[best.meta["start"]:best.meta["end"]] == best.text
    doc.write_text("Only one short paragraph about owls.\n")
    reloaded = sym(f"/load {doc}")
    assert "replacing" in reloaded.text and reloaded.data["chunks"] == 1
    assert sym.shell.memory.store.count("docs") == 1 < chunks
    listing = sym("/docs")
    assert [row[0] for row in listing.rows] == ["notes.md"]


@pytest.mark.parametrize("name,content,message", [("a.txt", b"", "is empty"), ("a.txt", b"  \n\n ", "is empty"),
                                                  ("a.bin", b"\x00\x01\x02binary", "binary"),
                                                  ("a.txt", b"\xff\xfe\xfa not utf8", "UTF-8")])
def test_bad_documents_give_one_line_and_store_nothing(psym, tmp_path, name, content, message):
    sym = psym()
    bad = tmp_path / name
    bad.write_bytes(content)
    result = sym(f"/load {bad}")
    assert isinstance(result, Failure) and message in result.message
    assert sym.shell.memory.store.count("docs") == 0


def test_search_ranks_facts_and_rules_by_meaning(psym):
    sym = psym()
    sym("father_of(joshua, don). likes(cow, grass). eats(cow, grass).")
    sym("grandfather_of(G, C) :- father_of(G, P), father_of(P, C).")
    hits = sym("/search father --k 2")
    assert {h.id for h in hits.hits} <= {it.id for it in sym.shell.memory.items.values()
                                         if "father" in it.text}
    assert "score" in json.dumps(hits.to_dict())


def test_schema_notes_a_near_duplicate_predicate_and_merges_on_request(psym):
    sym = psym()
    sym("located_in(paris, france).")
    added = sym("located_at(berlin, germany).")
    assert isinstance(added, Added) and any("located_in/2" in n for n in added.notes)
    merged = sym("/schema merge located_at/2 located_in/2 --yes")
    assert isinstance(merged, Message), to_text(merged)
    assert sym("?- located_in(berlin, X).").answer.bindings == [{"X": "germany"}]
    sym("/set schema.merge auto")
    auto = sym("locatedIn(rome, italy).")
    assert auto.items[0].text == "located_in(rome, italy)."
    assert isinstance(sym('/schema template located_in/2 "{0} is in {1}"'), Message)
    assert isinstance(sym('/schema template located_in/2 "{0} is in {2}"'), Failure)


def test_forget_derived_keeps_asserted_items(psym):
    sym = psym()
    sym("p(a). q(X) :- p(X).")
    sym("/infer")
    dropped = sym("/forget --derived")
    assert dropped.data["dropped"] == 1 and len(sym.shell.memory.items) == 2
    assert sym("?- q(a).").answer.truth == "true"      # derived again on demand


def test_reindex_rebuilds_with_another_embedder_and_mismatch_is_explained(sym_exe, psym):
    sym = psym()
    sym("father_of(joshua, don).")
    result = sym("/reindex hash:64")
    assert isinstance(result, Message) and result.data["records"] >= 1
    assert sym.shell.memory.store.embedder.name == "hash:64"
    assert sym("?- father_of(joshua, X).").answer.bindings == [{"X": "don"}]
    sym.shell.close()
    proc = run(sym_exe, "--embedder", "hash", "--batch", "-", stdin="?- father_of(joshua, X).\n")
    assert proc.returncode == 2 and "built with embedder 'hash:64'" in proc.stderr and "/reindex" in proc.stderr
    same = run(sym_exe, "--batch", "-", stdin="?- father_of(joshua, X).\n")
    assert same.stdout.startswith("X = don")


def test_a_corrupt_workspace_is_one_clear_line(sym_exe, sym_home):
    store = sym_home / "workspaces" / "default" / "chroma"
    store.mkdir(parents=True)
    (store / "chroma.sqlite3").write_bytes(b"this is not a database" * 100)
    proc = run(sym_exe, "--batch", "-", stdin="p(a).\n")
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def test_an_unreachable_chroma_server_exits_3(sym_exe):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]      # nothing listens once the socket closes
    proc = run(sym_exe, "--chroma-url", f"http://127.0.0.1:{port}", "--batch", "-", stdin="p(a).\n")
    assert proc.returncode == 3
    assert "cannot reach the Chroma server" in proc.stderr and "Traceback" not in proc.stderr


@pytest.fixture
def chroma_server(tmp_path):
    from tests.conftest import chroma_server as running

    with running(tmp_path / "server") as url:
        yield url

def test_server_mode_shares_memory_between_runs(sym_exe, chroma_server, tmp_path):
    env = {**os.environ, "SYM_HOME": str(tmp_path / "elsewhere")}   # nothing embedded is used
    first = run(sym_exe, "--chroma-url", chroma_server, "--memory", "team", "--batch", "-",
                stdin="parent_of(ann, ben).\nancestor(X, Y) :- parent_of(X, Y).\n", env=env)
    assert first.returncode == 0, first.stderr
    second = run(sym_exe, "--chroma-url", chroma_server, "--memory", "team", "--batch", "-",
                 stdin="?- ancestor(ann, X).\n/workspaces\n", env=env)
    assert second.returncode == 0, second.stderr
    assert second.stdout.splitlines()[0] == "X = ben" and "team" in second.stdout
    assert not (tmp_path / "elsewhere" / "workspaces").exists()


def test_a_damaged_snapshot_is_rebuilt_from_what_chroma_holds(psym, sym_home):
    sym = psym()
    sym("p(a). p(b). q(X) :- p(X).")
    assert sym.shell.memory.store.wait(None) == 0                 # the background writer caught up
    sym.shell.close()
    snapshot = sym_home / "workspaces" / "default" / "items.sqlite"
    assert snapshot.exists()
    snapshot.write_bytes(b"garbage, not sqlite" * 50)            # a damaged snapshot is rebuilt
    again = psym()
    assert sorted(it.text for it in again.shell.memory.items.values()) == ["p(a).", "p(b).", "q(X) :- p(X)."]
    store = again.shell.memory.store
    store.delete("facts", [it.id for it in again.shell.memory.items.values() if it.text == "p(b)."])
    again.shell.close()                                        # deleted through the store of record
    third = psym()
    assert sorted(it.text for it in third.shell.memory.items.values()) == ["p(a).", "q(X) :- p(X)."]
    assert third("?- q(b).").answer.truth == "false"
