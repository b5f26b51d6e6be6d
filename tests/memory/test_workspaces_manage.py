"""Keeping workspaces in hand: /workspaces lists each with its counts and dates (read from its
snapshot, without its lock or Chroma), /workspace rm deletes one after a confirmation and refuses
the current one and one another shell holds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time

import pytest

from sym.repl.render import to_text
from sym.repl.results import Message, Table
from tests.conftest import chroma_server, fails


def run(shell, line: str):
    return shell.execute(line)[1]


def rows(shell) -> dict[str, tuple]:
    listing = run(shell, "/workspaces")
    assert isinstance(listing, Table), listing
    return {name: (held, note) for name, held, note in listing.rows}


def test_workspaces_lists_counts_and_dates_and_marks_the_current_one(shells):
    before = time.time()
    shell = shells()
    run(shell, "parent_of(ann, ben). parent_of(ben, cy).")
    run(shell, "ancestor(X, Y) :- parent_of(X, Y).")
    run(shell, ":- parent_of(X, X).")
    run(shell, "/workspace lab")
    run(shell, "likes(ann, cake).")

    listed = rows(shell)
    assert set(listed) == {"default", "lab"}
    assert listed["default"][0] == "2 facts, 1 rule, 1 constraint"
    assert listed["lab"][0] == "1 fact, 0 rules, 0 constraints"
    assert listed["lab"][1].endswith("current") and "current" not in listed["default"][1]
    assert "created " in listed["default"][1] and "changed " in listed["default"][1]

    data = {w["name"]: w for w in run(shell, "/workspaces").to_dict()["workspaces"]}
    assert (data["default"]["facts"], data["default"]["rules"], data["default"]["constraints"]) == (2, 1, 1)
    assert data["lab"]["current"] and not data["default"]["current"]
    assert before - 1 <= data["default"]["created"] <= data["default"]["changed"] <= time.time() + 1


def test_the_last_change_moves_with_the_content(shells):
    shell = shells()
    run(shell, "p(a).")
    first = run(shell, "/workspaces").to_dict()["workspaces"][0]
    time.sleep(0.01)   # the stamp is the clock's: two changes must read apart
    run(shell, "/forget p(a)")
    second = run(shell, "/workspaces").to_dict()["workspaces"][0]
    assert second["facts"] == 0 and second["changed"] > first["changed"]
    assert second["created"] == first["created"]


def test_listing_takes_no_lock_and_opens_no_chroma(shells, sym_home):
    holder = shells("lab")                       # another shell holds lab's lock
    run(holder, "likes(ann, cake). likes(bob, pie).")
    script = textwrap.dedent("""
        import json, sys
        from sym.repl.dispatcher import MemoryOptions, open_shell
        shell = open_shell(MemoryOptions("default", background=False), record=False)
        result = shell.execute("/workspaces")[1]
        print(json.dumps({"rows": result.to_dict()["workspaces"], "chromadb": "chromadb" in sys.modules}))
        shell.close()
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "SYM_HOME": str(sym_home)})
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert not out["chromadb"]
    assert {w["name"]: w["facts"] for w in out["rows"]} == {"default": 0, "lab": 2}
    assert run(holder, "likes(cy, tea).").ok                 # its lock was never disturbed
    assert len(holder.memory.items) == 3


def test_rm_says_what_it_would_delete_then_deletes_with_yes(shells, sym_home):
    shell = shells()
    run(shell, "/workspace lab")
    run(shell, "p(a). p(b). q(X) :- p(X).")
    run(shell, "/workspace default")
    folder = sym_home / "workspaces" / "lab"

    asked = run(shell, "/workspace rm lab")
    assert isinstance(asked, Message)
    assert "2 facts, 1 rule, 0 constraints" in asked.text and "/workspace rm lab --yes" in asked.text
    assert asked.data["deleted"] is False and folder.is_dir()
    assert "lab" in rows(shell)

    done = run(shell, "/workspace rm lab --yes")
    assert isinstance(done, Message) and done.data["deleted"] is True, to_text(done)
    assert not folder.exists() and "lab" not in rows(shell)
    assert not [p for p in (sym_home / "workspaces").iterdir() if p.name.startswith(".")]   # nothing left aside


def test_rm_refuses_the_current_workspace_and_one_open_in_another_shell(shells, sym_home):
    other = shells("lab")
    run(other, "p(a).")
    shell = shells()
    run(shell, "q(a).")

    fails(run(shell, "/workspace rm default --yes"), "this shell works in")
    fails(run(shell, "/workspace rm lab --yes"), "open in another sym", f"process {os.getpid()}")
    fails(run(shell, "/workspace rm lab"), "open in another sym")         # the preview says so too
    assert (sym_home / "workspaces" / "lab").is_dir() and (sym_home / "workspaces" / "default").is_dir()
    assert run(other, "?- p(a).").answer.truth == "true" and len(shell.memory.items) == 1

    other.close()                                          # once that shell is gone, it can go
    assert run(shell, "/workspace rm lab --yes").data["deleted"] is True


@pytest.mark.parametrize("line, words", [
    ("/workspace rm", ["name one workspace"]),
    ("/workspace rm a b --yes", ["name one workspace"]),
    ("/workspace rm nosuch --yes", ["no workspace 'nosuch'"]),
    ("/workspace rm ../default --yes", ["bad workspace name"]),
    ("/workspace lab --yes", ["--yes goes with rm"]),
    ("/workspace rm lab --force", ["unknown option --force"]),
])
def test_bad_rm_input_is_one_line_and_changes_nothing(shells, sym_home, line, words):
    shell = shells()
    run(shell, "/workspace lab")
    run(shell, "p(a).")
    run(shell, "/workspace default")
    fails(run(shell, line), *words)
    assert rows(shell)["lab"][0] == "1 fact, 0 rules, 0 constraints"
    assert shell.memory.workspace == "default"


def test_a_workspace_whose_snapshot_does_not_read_is_listed_and_can_be_deleted(shells, sym_home):
    shell = shells()
    broken = sym_home / "workspaces" / "broken"
    broken.mkdir()
    (broken / "items.sqlite").write_bytes(b"not a database" * 100)
    assert rows(shell)["broken"][0] == "contents not readable without opening it"
    assert "contents not readable" in run(shell, "/workspace rm broken").text and broken.exists()
    assert run(shell, "/workspace rm broken --yes").data["deleted"] is True and not broken.exists()


def test_a_deleted_workspace_can_be_made_again_under_its_name(shells):
    shell = shells()
    shell.ctx.patient = True                   # searches wait for the vectors, as in batch mode
    for food in ("cake", "pie"):
        run(shell, "/workspace lab")
        assert not shell.memory.items          # made new: nothing of the deleted one
        run(shell, f"likes(ann, {food}).")
        hits = run(shell, f"/search {food}")
        assert [h.text for h in hits.hits] == [f"likes(ann, {food})."], to_text(hits)
        run(shell, "/workspace default")
        assert run(shell, "/workspace rm lab --yes").data["deleted"] is True


# -- a Chroma server ---------------------------------------------------------------------------



@pytest.fixture
def chroma_url(tmp_path):
    with chroma_server(tmp_path / "server") as url:
        yield url


def test_with_a_chroma_server_rm_deletes_the_server_collections(shells, chroma_url, sym_home):
    import chromadb

    shell = shells("team", chroma_url=chroma_url)
    run(shell, "p(a). p(b). q(X) :- p(X). :- p(c).")
    run(shell, "/workspace other")
    run(shell, "r(a).")
    listed = rows(shell)
    assert listed["team"][0] == "2 facts, 1 rule, 1 constraint"
    assert listed["other"] == ("1 fact, 0 rules, 0 constraints", "current")   # a server keeps no dates

    asked = run(shell, "/workspace rm team")
    assert "2 facts, 1 rule, 1 constraint" in asked.text and "no locks" in asked.text and "--yes" in asked.text
    fails(run(shell, "/workspace rm other --yes"), "this shell works in")
    fails(run(shell, "/workspace rm nosuch --yes"), "no workspace 'nosuch' on the Chroma server")

    done = run(shell, "/workspace rm team --yes")
    assert done.data["deleted"] is True and "Chroma server" in done.text
    client = chromadb.HttpClient(host="127.0.0.1", port=int(chroma_url.rsplit(":", 1)[1]))
    names = {str(getattr(c, "name", c)) for c in client.list_collections()}
    assert not {n for n in names if n.startswith("sym_team_")} and "sym_other_facts" in names
    assert set(rows(shell)) == {"other"}
    assert not (sym_home / "workspaces").exists()          # nothing embedded was made or touched
