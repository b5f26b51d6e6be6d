"""A large model through the shell, as a user meets it: `/listing --derived` and `/show derived`
show a page counted and read from the engine (DuckDB's tables on a DuckDB workspace, the same path
on the native engine), say how many there are and how to see the next page; `/why` on a derived
fact of a large DuckDB model gathers and re-derives only what its proof needs."""

from __future__ import annotations

import re
import tracemalloc

import pytest

from sym.repl.commands.logic import LISTING_PAGE
from sym.repl.render import to_text
from sym.repl.results import Failure
from tests.conftest import fails

RULES = ("/rule p(X, Y) :- e(X, Y).", "/rule p(X, Y) :- e(X, Z), p(Z, Y).")
NEXT = re.compile(r"(/listing \S+ --derived --offset \d+) shows the next ones")


def run(shell, line: str):
    result = shell.execute(line)[1]
    assert not isinstance(result, Failure), (line, result)
    return result


def chain(shell, tmp_path, n: int, engine: str) -> None:
    """A workspace on `engine` with the n edges of a chain consulted from a CSV and their closure's rules."""
    table = tmp_path / f"chain{n}.csv"
    table.write_text("".join(f"n{i},n{i + 1}\n" for i in range(n)))
    run(shell, f"/workspace c{n}{engine} --engine {engine}")
    run(shell, f"/consult {table} as e/2")
    for rule in RULES:
        run(shell, rule)


def derived_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.startswith("         ")]


@pytest.mark.parametrize("engine", ["duckdb", "native"])
def test_pages_of_derived_facts_cover_the_model_once_and_say_how_to_go_on(shells, tmp_path, engine):
    shell = shells("default")
    chain(shell, tmp_path, 30, engine)
    every = {f"p({b['X']}, {b['Y']})." for b in run(shell, "?- p(X, Y).").to_dict()["bindings"]}
    assert len(every) == 30 * 31 // 2
    seen: list[str] = []
    line = "/listing p --derived --limit 100"
    while line:
        text = to_text(run(shell, line))
        page = derived_lines(text)
        first = len(seen) + 1
        seen += page
        assert f"% derived facts {first}–{len(seen)} of 465" in text
        found = NEXT.search(text)
        line = f"{found.group(1)} --limit 100" if found else ""
    assert len(seen) == len(every) and set(seen) == every        # each fact on exactly one page
    result = run(shell, "/listing p/2 --derived --offset 460")
    assert result.to_dict()["derived_count"] == 465 and len(result.to_dict()["derived"]) == 5
    assert "no derived facts after the first 500 (465 in all)" in to_text(run(shell, "/listing --derived --offset 500"))


@pytest.mark.parametrize("engine", ["duckdb", "native"])
def test_a_small_listing_is_shown_whole_as_before(shells, tmp_path, engine):
    shell = shells("default")
    chain(shell, tmp_path, 3, engine)
    result = run(shell, "/listing p --derived")
    assert sorted(result.derived) == ["p(n0, n1)", "p(n0, n2)", "p(n0, n3)", "p(n1, n2)", "p(n1, n3)", "p(n2, n3)"]
    assert "derived_count" not in result.to_dict()
    assert to_text(result).splitlines()[-1].startswith("         p(")      # no line about pages
    assert sorted(run(shell, "/show derived").derived) == sorted(result.derived)
    assert ("derived", 6) in [row[:2] for row in run(shell, "/show").rows]


def test_paging_options_go_with_derived_and_bad_values_are_one_line(shells):
    shell = shells("kin")
    run(shell, "/fact e(a, b).")
    assert fails(shell.execute("/listing --offset 5")[1], "--offset", "--derived")
    assert fails(shell.execute("/listing --derived --limit 0")[1], "--limit")
    assert fails(shell.execute("/listing --derived --offset -1")[1], "--offset")


def traced(action):
    """What `action` returns, and the peak of Python memory it allocated (tracemalloc)."""
    tracemalloc.start()
    try:
        return action(), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_page_of_a_large_duckdb_model_costs_its_own_rows(shells, tmp_path):
    """245,350 derived facts in DuckDB's tables: a page of ten is read from there (a list of all of
    them in Python would take tens of MB)."""
    shell = shells("default")
    chain(shell, tmp_path, 700, "duckdb")
    run(shell, "/infer")
    text, peak = traced(lambda: to_text(run(shell, "/listing p --derived --limit 10 --offset 200000")))
    assert len(derived_lines(text)) == 10 and "of 245,350" in text and "--offset 200010" in text
    assert peak < 2 * 2**20, f"{peak / 2**20:.1f} MB to list a page"
    shown = to_text(run(shell, "/show derived"))
    assert len(derived_lines(shown)) == LISTING_PAGE and f"1–{LISTING_PAGE:,} of 245,350" in shown


def test_why_on_a_large_duckdb_model_gathers_only_what_its_proof_shows(shells, tmp_path):
    """A 400-edge chain's closure (80,200 facts) in DuckDB: /why of its longest fact fetches the few
    levels the tree shows and re-derives only those natively, well inside a small max_facts (the
    native engine inferring the closure of what a proof fetched would pass 80,000 facts)."""
    shell = shells("default")
    chain(shell, tmp_path, 400, "duckdb")
    run(shell, "/infer")
    run(shell, "/set max_facts 2000")
    tree, peak = traced(lambda: to_text(run(shell, "/why p(n0, n400)")))
    lines = tree.splitlines()
    assert lines[0].startswith("p(n0, n400)  [rule r") and "e(n0, n1)  [fact" in lines[1]
    assert "p(n11, n400)" in tree and "deeper steps elided" in tree
    assert peak < 2 * 2**20, f"{peak / 2**20:.1f} MB for one proof"
    short = to_text(run(shell, "/why p(n5, n8)"))      # fetched whole: re-derived, with well-founded steps
    assert short.splitlines()[0].endswith(", step 3]") and "e(n7, n8)  [fact" in short
