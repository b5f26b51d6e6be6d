"""Arithmetic and aggregates through `sym mcp` with the SDK's own client: a consulted file, rules
and queries as tools, an aggregate's proof tree, a bad value as a one-line tool error."""

from __future__ import annotations

import pytest

from tests.mcp.test_mcp import Client, ok, refused, text


@pytest.fixture(scope="module")
def server(sym_exe, tmp_path_factory):
    root = tmp_path_factory.mktemp("mcp-numbers")
    home, work = root / "home", root / "work"
    home.mkdir()
    work.mkdir()
    (work / "shop.pl").write_text("price(tea, 2.5). price(cake, 4). price(bun, 1).\n"
                                  "stock(tea, 10). stock(cake, 3). stock(bun, 0).\n")
    with Client(sym_exe, home, work, "--memory", "numbers") as client:
        yield client


def test_a_consulted_file_and_rules_with_numbers_answer_over_mcp(server):
    ok(server.call("consult", file="shop.pl"))
    ok(server.call("rule", clauses="worth(X, W) :- price(X, P), stock(X, S), W is P * S."))
    ok(server.call("rule", clauses="total(T) :- aggregate_all(sum(W), worth(_, W), T)."))
    ok(server.call("rule", clauses="out(N) :- aggregate_all(count, stock(_, 0), N)."))
    assert ok(server.call("query", goal="worth(X, W), W > 5"))["bindings"] == [{"X": "tea", "W": 25}, {"X": "cake", "W": 12}]
    assert ok(server.call("query", goal="total(T)"))["bindings"] == [{"T": 37}]
    assert ok(server.call("query", goal="out(1)"))["truth"] == "true"
    tree = server.call("why", goal="total(37)")
    assert "aggregate_all(sum(W), worth(_, W), 37)" in text(tree) and "worth(tea, 25)" in text(tree)


def test_a_bad_value_is_a_one_line_tool_error_and_changes_nothing(server):
    before = ok(server.call("listing"))["items"]
    refused(server.call("query", goal="price(X, P), Y is P / 0"), "division by zero")
    refused(server.call("rule", clauses="bad(N) :- price(X, _), N is Q + 1."), "variable Q")
    assert ok(server.call("listing"))["items"] == before
