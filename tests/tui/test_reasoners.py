"""The real reasoners driven through the TUI's input, their models scripted by the Ollama-protocol
test server: /chat streams once, /ask and /explore fill Trace, /prove and /explore fill Models,
and the status line follows JobStarted / JobFinished."""

from __future__ import annotations

import pytest
from textual.widgets import Markdown

from sym.core.logic.parser import parse_atom
from sym.core.memory.working import item_id
from sym.plugins.prompters import add_pack
from tests.tui.conftest import SIZE, idle, transcript_text, type_turn, until
from tests.verifier import verifier

pytestmark = pytest.mark.asyncio

# A prompter pack whose prompts say plainly what they ask, so the server can be scripted per goal.
PACK = {"name": "t", "description": "test pack", "or_items": 3, "and_items": 4,
        "prompts": {"or": "OR <$g> path <$context> topic <$topic> n <$n>", "and": "AND <$g> path <$context>",
                    "oracle": "ORACLE <$g> for <$topic>", "rater": "RATE <$g>",
                    "constraint": "CONFLICTS in <$topic>:\n$items"}}


def tree_labels(pane) -> list[str]:
    """The Trace tree's node labels, depth first, without detail leaves and LLM-call leaves."""
    details = {id(leaf) for leaf in pane.details.values()}
    out = []

    def walk(node):
        for child in node.children:
            if id(child) in details or str(child.label).startswith("model "):
                continue
            out.append(str(child.label))
            walk(child)
    walk(pane.root)
    return out


def llm_leaves(pane) -> list[str]:
    found = []

    def walk(node):
        for child in node.children:
            if str(child.label).startswith("model "):
                found.append(str(child.label))
            walk(child)
    walk(pane.root)
    return found


async def test_a_chat_reply_appears_exactly_once(llm_app, ollama_server):
    app = llm_app()
    app.shell.ctx.settings.agent_style = "plain"      # the model alone, streamed (no commands)
    fid = item_id(parse_atom("mortal(socrates)"))
    ollama_server.reply(f"Socrates is **mortal** [{fid}].", when="Socrates")
    ollama_server.reply("Plato taught Aristotle.", when="Plato")
    async with app.run_test(size=SIZE) as pilot:
        assert app.shell.ctx.streams is True
        await type_turn(pilot, "mortal(socrates).")
        await type_turn(pilot, "/chat Is Socrates mortal?")
        await type_turn(pilot, "Who did Plato teach?")        # a sentence routes to /chat
        await idle(pilot)
        text = transcript_text(app)
        assert text.count("Socrates is **mortal**") == 1
        assert f"(cites {fid})" in text
        assert text.count("Plato taught Aristotle.") == 1
        assert [md.source for md in app.transcript.query(Markdown)] == [
            f"Socrates is **mortal** [{fid}].", "Plato taught Aristotle."]
        assert [it.text for it in app.shell.memory.items.values()] == ["mortal(socrates)."]
        assert len(llm_leaves(app.query_one("#trace"))) == 2


async def test_the_status_line_shows_the_running_job_from_its_events(llm_app, ollama_server):
    app = llm_app()
    app.shell.ctx.settings.agent_style = "plain"      # the model alone, streamed (no commands)
    ollama_server.reply("Socrates is mortal.", chunks=["Socrates ", "is ", "mortal."], chunk_delay=0.3)
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "Is Socrates mortal?")
        await until(pilot, lambda: "Socrates" in app.transcript.streamed)
        assert app.status.job == "/chat"                    # from JobStarted, not the typed sentence
        assert "running /chat" in str(app.status.render())
        await idle(pilot)
        assert app.status.job == "" and "idle" in str(app.status.render())


async def test_escape_cancels_a_streaming_chat(llm_app, ollama_server):
    app = llm_app()
    app.shell.ctx.settings.agent_style = "plain"      # the model alone, streamed (no commands)
    ollama_server.reply("one two three four five six seven eight nine ten", chunk_delay=0.5)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await type_turn(pilot, "/chat count slowly")
        await until(pilot, lambda: app.transcript.streamed)
        await pilot.press("escape")
        await idle(pilot)
        assert "ten" not in app.transcript.streamed
        assert "cancelled" in transcript_text(app).splitlines()[-1]
        assert app.status.job == "" and app.entry.disabled is False
        assert app.shell.memory.items == {}


async def test_ask_with_a_soft_rule_shows_its_steps_and_llm_calls_in_trace(llm_app, ollama_server):
    app = llm_app()
    condition = {"predicate": "other", "new_predicate": "kind", "args": ["X"], "negated": False}
    extraction = {"statements": [{"kind": "soft", "predicate": "other", "new_predicate": "happy", "args": ["X"],
                                  "negated": False, "if": [condition]}]}
    verifier(ollama_server)                              # the second opinion on the reading agrees
    ollama_server.reply(json=extraction, when="usually", times=1)
    ollama_server.reply(json={"applies": True, "facts": ["Happy(anne)"]}, when="anne")
    ollama_server.reply('no JSON here, {"applies": false}', when="fiona")
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "/tell Kind people are usually happy.")
        await type_turn(pilot, "/tell Anne is kind. Fiona is kind.")
        await type_turn(pilot, "/ask Anne is happy.")
        await idle(pilot)
        assert "true\nbecause:\n  1. happy(anne)." in transcript_text(app)
        trace = app.query_one("#trace")
        runs = {str(r.label): r for r in trace.root.children}
        ask = next(r for name, r in runs.items() if name.endswith("· answering"))
        assert ask.is_expanded and not runs[next(n for n in runs if n.endswith("· reading"))].is_expanded
        [goal] = [c for c in ask.children if not str(c.label).startswith("model ")]
        assert str(goal.label) == "question truth: happy(anne)"
        step = next(c for c in goal.children if "step 1" in str(c.label))
        outcomes = [str(c.label) for c in step.children]
        assert "fact happy(anne).  [ok]" in outcomes
        assert any(o.startswith("rejected ") and o.endswith("[rejected]") for o in outcomes)
        calls = llm_leaves(trace)
        assert sum(c.startswith("model reading sentences · ") for c in calls) == 1
        assert sum(c.startswith("model judging rule instances · ") for c in calls) == 2
        facts = app.query_one("#facts")
        assert item_id(parse_atom("happy(anne)")) in facts.rows


async def test_explore_streams_its_tree_into_trace_and_its_model_into_models(llm_app, ollama_server):
    app = llm_app()
    add_pack(app.shell.registry, PACK, origin="tui tests")
    ollama_server.default = ""
    # Sprinkler gets no sub-goals: the recursor sends its node again, as a leaf
    for step, goal, reply in [("OR", "wet grass", "1. Rain\n2. Sprinkler"), ("AND", "Rain", "- clouds\n- humidity")]:
        ollama_server.reply(reply, when=lambda r, head=f"{step} <{goal}>": r.last_user.startswith(head))
    ollama_server.fail("slow", when=lambda r: r.last_user.startswith("AND <Sprinkler>"), delay=1.0)
    async with app.run_test(size=SIZE) as pilot:
        trace = app.query_one("#trace")
        await type_turn(pilot, "/explore wet grass --prompter t --depth 1")
        await until(pilot, lambda: any("Sprinkler" in label for label in tree_labels(trace)))
        assert app.job is not None       # the tree grows while the job still runs
        await idle(pilot)
        labels = tree_labels(trace)
        assert labels[0] == "/explore wet grass --prompter t --depth 1  · exploration"
        assert labels[1:] == ["wet grass  [goal]", "Rain  [alternative]", "clouds  [kept]", "humidity  [kept]",
                              "Sprinkler  [kept]"]        # sent twice, shown once, updated
        sprinkler = next(n for n in trace.nodes.values() if "Sprinkler" in str(n.label))
        assert [str(c.label) for c in sprinkler.children] == ["assumed (depth limit)"]
        assert len(llm_leaves(trace)) == 3
        models = app.query_one("#models")
        assert {"program", "horn.model"} <= set(models.shown)
        model = str(models.shown["horn.model"][1].render()).splitlines()
        assert sorted(model) == ["clouds", "humidity", "rain", "sprinkler", "wet grass"]
        assert "'wet grass' :- 'rain'." in str(models.shown["program"][1].render())


async def test_prove_a_program_file_shows_the_counter_model(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_turn(pilot, "/prove --file examples/hardhat.json")
        await idle(pilot)
        assert "refuted  Hard hat compliance" in transcript_text(app)
        models = app.query_one("#models")
        title, body = (str(w.render()) for w in models.shown["z3.counter-model"])
        assert title == "Hard hat compliance: counter-model (refuted)"
        assert "p = carol" in body and "Wearing(carol, hardHat) = False" in body
        assert '"Worker"' in str(models.shown["program"][1].render())
        assert list(models.shown) == ["z3.counter-model", "program"]
        shown = [str(w.render()) for w in models.children]
        assert shown.index(title) < shown.index("examples/hardhat.json")   # ordered by kind
