"""The shell on a DuckDB workspace, through the real command registry: a workspace opened with
--engine duckdb takes facts and rules, answers ?- and /why and /listing as the native one does,
keeps its engine when reopened, and /set engine moves a filled workspace both ways."""

from __future__ import annotations

from sym.core.backends.choice import kind
from sym.repl.render import to_text
from sym.repl.results import Failure
from tests.conftest import fails

KIN = """\
/fact parent(ann, bob).
/fact parent(bob, cid).
/fact parent(cid, dan).
/rule ancestor(X, Y) :- parent(X, Y).
/rule ancestor(X, Z) :- parent(X, Y), ancestor(Y, Z).
/rule childless(X) :- parent(_, X), not parent(X, _).
/rule kids(X, N) :- parent(X, _), aggregate_all(count, parent(X, _), N).
"""


def run(shell, line: str):
    return shell.execute(line)[1]


def fill(shell) -> None:
    for line in KIN.splitlines():
        result = run(shell, line)
        assert not isinstance(result, Failure), (line, result)


def text(result) -> str:
    return to_text(result)


def test_a_duckdb_workspace_answers_queries_why_and_listing(shells):
    shell = shells("default")
    assert "workspace kin" in text(run(shell, "/workspace kin --engine duckdb"))
    assert kind(shell.memory.engine) == "duckdb"
    assert shell.ctx.settings.engine == "duckdb"
    fill(shell)
    answer = run(shell, "?- ancestor(ann, X).")
    assert {b["X"] for b in answer.to_dict()["bindings"]} == {"bob", "cid", "dan"}
    assert run(shell, "?- ancestor(dan, ann).").to_dict()["truth"] == "false"
    assert {b["X"] for b in run(shell, "?- childless(X).").to_dict()["bindings"]} == {"dan"}
    why = text(run(shell, "/why ancestor(ann, dan)"))
    assert "parent(ann, bob)" in why and "parent(cid, dan)" in why and "ancestor(cid, dan)" in why
    listing = text(run(shell, "/listing ancestor --derived"))
    assert "ancestor(ann, dan)" in listing


def test_a_duckdb_workspace_keeps_its_engine_and_facts_when_reopened(shells):
    shell = shells("default")
    run(shell, "/workspace kin --engine duckdb")
    fill(shell)
    run(shell, "/workspace default")
    assert kind(shell.memory.engine) == "native"
    run(shell, "/workspace kin")
    assert kind(shell.memory.engine) == "duckdb"
    answer = run(shell, "?- kids(bob, N).")
    assert answer.to_dict()["bindings"] == [{"N": 1}]


def test_set_engine_moves_a_filled_workspace_and_back(shells):
    shell = shells("kin")
    fill(shell)
    native = run(shell, "?- ancestor(X, dan).").to_dict()["bindings"]
    summary = [row[:2] for row in run(shell, "/show").rows]
    moved = text(run(shell, "/set engine duckdb"))
    assert "3 facts" in moved and "4 rules" in moved
    assert kind(shell.memory.engine) == "duckdb"
    assert sorted(map(str, run(shell, "?- ancestor(X, dan).").to_dict()["bindings"])) == sorted(map(str, native))
    assert [row[:2] for row in run(shell, "/show").rows] == summary      # derived counted in the database
    assert ("derived", 10) in summary
    run(shell, "/set engine native")
    assert kind(shell.memory.engine) == "native"
    assert run(shell, "?- ancestor(ann, dan).").to_dict()["truth"] == "true"


def test_bad_engine_is_one_line_and_changes_nothing(shells):
    shell = shells("kin")
    fill(shell)
    result = run(shell, "/set engine oracle")
    assert fails(result, "unknown engine")
    assert kind(shell.memory.engine) == "native"


def test_the_configured_engine_is_what_a_new_workspace_gets(shells):
    from sym.core.settings import config_path

    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('[settings]\nengine = "duckdb"\n')
    shell = shells("fresh")
    assert kind(shell.memory.engine) == "duckdb" and shell.ctx.settings.engine == "duckdb"
    run(shell, "/set engine native")          # recorded in the workspace: its choice wins from now on
    run(shell, "/workspace other")
    assert kind(shell.memory.engine) == "duckdb"
    run(shell, "/workspace fresh")
    assert kind(shell.memory.engine) == "native"
