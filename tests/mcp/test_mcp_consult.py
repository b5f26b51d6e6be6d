"""Consulting a table through `sym mcp` with the SDK's own client, on a DuckDB workspace: the
relation (`as`) and the header and bad-row flags are typed arguments, written into the /consult
line by sym and read back by the shell's own parser; anything else in them is a one-line refusal
that runs nothing."""

from __future__ import annotations

import pytest

from tests.mcp.test_mcp import Client, ok, refused


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    root = tmp_path_factory.mktemp("mcp-consult")
    home, work, outside = root / "home", root / "work", root / "outside"
    for folder in (home, work, outside):
        folder.mkdir()
    (home / "config.toml").write_text('[settings]\nengine = "duckdb"\n')
    (work / "people.csv").write_text("name,age,city\nann,34,oslo\nbob,27,rome\ncid,51,oslo\n")
    (work / "edges.csv").write_text("a,b\nb,c\nc,d\n")
    (work / "bad.csv").write_text("x,1\ny\nz,3\n")
    (work / "my nodes as n.csv").write_text("p\nq\n")
    (outside / "secret.csv").write_text("gold,1\n")
    return {"home": home, "work": work, "outside": outside}


@pytest.fixture(scope="module")
def server(sym_exe, place):
    with Client(sym_exe, place["home"], place["work"], "--memory", "tables") as client:
        yield client
    assert "Traceback" not in client.stderr(), client.stderr()


def bindings(server, goal: str) -> list[dict]:
    return ok(server.call("query", goal=goal))["bindings"]


def test_the_consult_tool_takes_a_relation_and_the_table_flags_as_typed_arguments(server):
    props = {t.name: t for t in server.run(lambda s: s.list_tools()).tools}["consult"].input_schema["properties"]
    assert props["as"]["type"] == "string" and "NAME/ARITY" in props["as"]["description"]
    assert all(props[flag]["type"] == "boolean" for flag in ("header", "no_header", "skip_bad"))


def test_a_csv_is_consulted_by_column_names_and_in_order(server):
    people = ok(server.call("consult", file="people.csv", **{"as": "lives(name, city)"}))
    assert people["rows"] == 3 and people["relation"] == "lives/2" and people["loaded"] == 3
    assert bindings(server, "lives(X, oslo)") == [{"X": "ann"}, {"X": "cid"}]
    edges = ok(server.call("consult", file="edges.csv", no_header=True, **{"as": "edge/2"}))
    assert edges["rows"] == 3
    ok(server.call("rule", clauses="path(X, Y) :- edge(X, Y). path(X, Z) :- edge(X, Y), path(Y, Z)."))
    assert bindings(server, "path(a, X)") == [{"X": "b"}, {"X": "c"}, {"X": "d"}]
    ages = ok(server.call("consult", file="people.csv", header=True, **{"as": "age(1, 2)"}))
    assert ages["rows"] == 3 and bindings(server, "age(bob, A)") == [{"A": 27}]


def test_bad_rows_refuse_the_file_unless_skip_bad_is_given(server):
    refused(server.call("consult", file="bad.csv", **{"as": "bad/2"}), "line 2")
    assert bindings(server, "edge(a, X)") == [{"X": "b"}]          # the server answers on, as before
    skipped = ok(server.call("consult", file="bad.csv", skip_bad=True, **{"as": "bad/2"}))
    assert skipped["rows"] == 3 and "1 bad row skipped" in skipped["warnings"][0]
    assert bindings(server, "bad(X, N)") == [{"X": "x", "N": 1}, {"X": "z", "N": 3}]


@pytest.mark.parametrize(("arguments", "words"), [
    ({"as": "edge/2 --skip-bad"}, ("as names no relation",)),
    ({"as": "edge/2 x"}, ("as names no relation",)),
    ({"as": "x/2 as edge/2"}, ("as names no relation",)),
    ({"as": "edge/2\n/consult ../outside/secret.csv as s/2"}, ("one line",)),
    ({"as": "edge/2", "header": True, "no_header": True}, ("both --header and --no-header",)),
    ({"as": "lives(name, city)", "no_header": True}, ("--no-header",)),
    ({"skip_bad": True}, ("go with as",)),
    ({"as": 2}, ("must be a string",)),
    ({"as": "edge/2", "skip_bad": "yes"}, ("must be a boolean",)),
])
def test_arguments_that_are_not_a_relation_and_flags_are_refused_in_one_line(server, arguments, words):
    refused(server.call("consult", file="edges.csv", **arguments), *words)


def test_a_file_name_is_read_as_given_and_never_outside_the_folders(server, place):
    ok(server.call("consult", file="my nodes as n.csv", **{"as": "node/1"}))     # `as` in the name is the name's
    assert bindings(server, "node(X)") == [{"X": "p"}, {"X": "q"}]
    refused(server.call("consult", file=str(place["outside"] / "secret.csv"), **{"as": "s/2"}), "outside the folders")
    refused(server.call("query", goal="s(X, Y)"), "unknown predicate")
