"""Every tool's result fits the output schema it lists: `sym mcp` through the SDK's own client in the
handshake-era (legacy) and 2026-07-28 modes, each tool called, each result validated (the client
validates too), its JSON copy in the content, tools listed in a fixed order, arguments under the
one naming scheme (old names taken, with a note), and the prompts.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from sym.repl.mcp.tools import TOOLS
from tests.mcp.clients import Agent

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", params=["legacy", "2026-07-28"])
def agent(request, sym_exe, tmp_path_factory):
    root = tmp_path_factory.mktemp(f"outputs-{request.param}")
    home, work = root / "home", root / "work"
    home.mkdir()
    work.mkdir()
    (home / "config.toml").write_text("[settings]\nmath_timeout = 600\n")   # a loaded machine
    for name in ("family.pl", "pets.smt2", "hardhat.json"):
        shutil.copy(ROOT / "examples" / name, work / name)
    (work / "notes.md").write_text("# Cars\n\nAn automobile has four wheels and an engine.\n")
    with Agent([*sym_exe, "mcp", "--memory", "outputs"], mode=request.param, cwd=work, home=home) as a:
        a.schemas = {t.name: t.output_schema for t in a.run(lambda c: c.list_tools()).tools}
        yield a


def fits(agent, tool: str, result) -> dict:
    """The structured result, validated against the tool's listed schema; the content's JSON copy equal."""
    data = result.structured_content
    jsonschema.validate(data, agent.schemas[tool])
    assert json.loads(result.content[-1].text) == data
    return data


def test_tools_are_listed_in_a_fixed_order_each_with_an_output_schema(agent):
    listed = agent.run(lambda c: c.list_tools()).tools
    assert [t.name for t in listed] == [s.name for s in TOOLS]
    for tool in listed:
        schema = tool.output_schema
        assert schema["type"] == "object" and schema["anyOf"], tool.name
        jsonschema.Draft202012Validator.check_schema(schema)
    again = agent.run(lambda c: c.list_tools()).tools
    assert [t.model_dump() for t in again] == [t.model_dump() for t in listed]


def test_every_tool_answers_within_its_schema(agent):
    calls = [
        ("fact", {"clauses": "parent_of(ann, ben). parent_of(ben, cy)."}, True),
        ("rule", {"clauses": "grandparent_of(X, Z) :- parent_of(X, Y), parent_of(Y, Z)."}, True),
        ("query", {"goal": "grandparent_of(ann, X)"}, True),
        ("query", {"goal": "grandparent_of(ann, cy)"}, True),
        ("why", {"goal": "grandparent_of(ann, cy)"}, True),
        ("infer", {"steps": 3}, True),
        ("listing", {"pred": "parent_of/2"}, True),
        ("check", {}, True),
        ("math", {"operation": "diff", "expr": "x**3", "wrt": "x"}, True),
        ("tell", {"text": "Bob is big. If something is big then it is red."}, True),
        ("ask", {"question": "Is Bob red?"}, True),
        ("consult", {"file": "family.pl"}, True),
        ("load", {"file": "notes.md"}, True),
        ("search", {"text": "automobile wheels", "kind": "docs", "k": 2}, True),
        ("prove", {"file": "hardhat.json"}, None),
        ("prove", {"file": "pets.smt2"}, None),
        ("extract", {"text": "Ada was born in London.", "into": "born_in/2"}, False),   # no model answers
        ("forget", {"items": "parent_of(ann, _)"}, True),
        ("forget", {"items": "nothing_like_this(_)"}, None),
        ("query", {"goal": "p(."}, False),
    ]
    seen = set()
    for tool, arguments, succeeds in calls:
        result = agent.call(tool, **arguments)
        data = fits(agent, tool, result)
        if succeeds is not None:
            assert result.is_error is not succeeds, (tool, data)
        assert data["ok"] is not result.is_error
        seen.add(tool)
    assert seen == {s.name for s in TOOLS}


def test_a_refused_call_fits_the_schema_too(agent):
    data = fits(agent, "ask", agent.call("ask", question="Is Bob red?", depth=3))
    assert data == {"ok": False, "kind": "error", "error": "unknown argument 'depth'",
                    "hint": data["hint"]} and "question" in data["hint"]


def test_old_argument_names_are_taken_with_a_one_line_note(agent):
    result = agent.call("fact", fact="colour(red).")
    data = fits(agent, "fact", result)
    assert [a["text"] for a in data["added"]] == ["colour(red)."]
    assert data["deprecated"] == ["argument 'fact' of fact is deprecated: call it 'clauses'"]
    assert "note: argument 'fact' of fact is deprecated" in result.content[0].text
    assert fits(agent, "query", agent.call("query", query="colour(X)"))["bindings"] == [{"X": "red"}]
    tree = fits(agent, "why", agent.call("why", fact="colour(red)"))
    assert tree["proofs"][0]["status"] and tree["deprecated"][0].startswith("argument 'fact' of why")
    both = agent.call("fact", fact="a(b).", clauses="a(c).")
    assert both.is_error and "unknown argument 'fact'" in both.structured_content["error"]
    assert "deprecated" not in fits(agent, "query", agent.call("query", goal="colour(X)"))


def test_prompts_map_common_tasks_to_tools(agent):
    prompts = {p.name: p for p in agent.run(lambda c: c.list_prompts()).prompts}
    assert {"load-and-ask", "prove-claim", "check-memory", "explain-fact"} <= set(prompts)
    assert [a.name for a in prompts["load-and-ask"].arguments] == ["file", "question"]
    got = agent.run(lambda c: c.get_prompt("load-and-ask", {"file": "notes.md", "question": "How many wheels?"}))
    text = got.messages[0].content.text
    assert got.messages[0].role == "user" and "`load`" in text and "notes.md" in text and "`ask`" in text
    from mcp.shared.exceptions import MCPError

    with pytest.raises(MCPError, match="needs 'question'"):
        agent.run(lambda c: c.get_prompt("load-and-ask", {"file": "notes.md"}))
    with pytest.raises(MCPError, match="unknown prompt"):
        agent.run(lambda c: c.get_prompt("nonsense", {}))


def test_a_2026_client_listening_on_stdio_hears_of_a_change(agent):
    """A subscriptions/listen stream naming sym://memory, on stdio (over HTTP: test_mcp_http.py)."""
    import anyio
    from mcp.client.subscriptions import ResourceUpdated

    if agent.mode == "legacy":
        return          # listening is 2026-07-28's; resources/subscribe is tested in test_mcp_http.py

    async def listen(client):
        async with client.listen(resource_subscriptions=["sym://memory"]) as sub:
            assert not (await client.call_tool("fact", {"clauses": "heard(yes)."})).is_error
            with anyio.fail_after(120):
                return await sub.__anext__()

    assert agent.run(listen) == ResourceUpdated(uri="sym://memory")
