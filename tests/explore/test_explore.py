"""/explore against the Ollama-protocol test server: trees, loops, duplicates, garbage,
refiners, exports (SWI-Prolog consults them), caching, cancellation, /prompters."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from sym.core.events import ModelShown, TraceNode, Warning
from sym.plugins.prompters import add_pack
from sym.repl.dispatcher import MemoryOptions, Shell, open_shell
from sym.repl.render import to_text
from sym.repl.results import Failure

# A pack whose prompts say plainly what they ask, so the server can be scripted per goal.
TEST_PACK = {"name": "t", "description": "test pack", "or_items": 3, "and_items": 4,
             "prompts": {"or": "OR <$g> path <$context> topic <$topic> n <$n>", "and": "AND <$g> path <$context>",
                         "oracle": "ORACLE <$g> for <$topic>", "rater": "RATE <$g>",
                         "constraint": "CONFLICTS in <$topic>:\n$items"}}


class Session:
    """A shell wired to the test server, recording events; `run` types one input."""

    def __init__(self, server, shell=None):
        self.events: list = []
        self.shell = shell or Shell(emit=self.events.append)
        if shell is not None:
            self.shell.ctx.emit = self.events.append
        self.shell.ctx.settings.ollama_host = server.url
        add_pack(self.shell.registry, TEST_PACK, origin="plugin tests")
        self.server = server
        server.default = ""        # an unscripted prompt gets no items

    def run(self, text: str):
        return self.shell.execute(text)[1]

    def script(self, step: str, goal: str, reply: str) -> None:
        """Reply to the STEP (OR, AND, ORACLE, RATE) prompt for GOAL (its text as sent)."""
        self.server.reply(reply, when=lambda r, head=f"{step} <{goal}>": r.last_user.startswith(head))

    def nodes(self, kind: str | None = None) -> list[TraceNode]:
        return [e for e in self.events if isinstance(e, TraceNode) and (kind is None or e.kind == kind)]

    def explore(self, args: str):
        result = self.run(f"/explore {args}")
        assert not isinstance(result, Failure), result.message
        return result


@pytest.fixture
def s(ollama_server):
    return Session(ollama_server)


def wet_grass(s: Session) -> None:
    s.script("OR", "wet grass", "1. Rain\n2. Sprinkler")
    s.script("AND", "Rain", "- clouds\n- humidity")
    s.script("AND", "Sprinkler", "- timer set\n- water supply")


# -- trees -----------------------------------------------------------------------------

def test_depth_one_tree_becomes_a_horn_program_and_its_model(s):
    wet_grass(s)
    r = s.explore("wet grass --prompter t --depth 1")
    e = r.exploration
    assert e.program.text().splitlines() == [
        "'wet grass' :- 'rain'.", "'wet grass' :- 'sprinkler'.", "'rain' :- 'clouds', 'humidity'.",
        "'clouds'.", "'humidity'.", "'sprinkler' :- 'timer set', 'water supply'.", "'timer set'.",
        "'water supply'."]
    assert e.model.model == {"wet grass", "rain", "sprinkler", "clouds", "humidity", "timer set", "water supply"}
    assert [n.kind for n in s.nodes()] == ["explore.and", "explore.or", "explore.or", "explore.leaf",
                                            "explore.leaf", "explore.leaf", "explore.leaf"]
    assert s.nodes()[0].parent is None and all(n.run == e.run for n in s.nodes())
    assert {m.kind for m in s.events if isinstance(m, ModelShown)} == {"program", "horn.model"}
    text = to_text(r)
    assert "program: 8 clauses; model: 7 atoms; top goal: holds" in text
    assert len(s.server.chats) == 3


def test_prompts_are_filled_with_goal_path_topic_and_count(s):
    wet_grass(s)
    s.script("OR", "clouds", "cold front")
    s.explore("wet grass --prompter t --depth 2")
    sent = [c.last_user for c in s.server.chats]
    assert "OR <wet grass> path <wet grass> topic <wet grass> n <3>" in sent
    assert "AND <Rain> path <wet grass>" in sent
    assert "OR <clouds> path <wet grass > Rain > clouds> topic <wet grass> n <3>" in sent
    assert not any("$" in text for text in sent)
    assert all(c.system for c in s.server.chats)


def test_depth_two_expands_sub_goals_and_depth_limits_the_tree(s):
    wet_grass(s)
    s.script("OR", "clouds", "cold front")
    s.script("AND", "cold front", "falling pressure")
    e = s.explore("wet grass --prompter t --depth 2").exploration
    assert "'clouds' :- 'cold front'." in e.program.text()
    assert "'cold front' :- 'falling pressure'." in e.program.text()
    assert "'falling pressure'." in e.program.text()
    # humidity, timer set and water supply got no alternatives: they are leaves (abducibles)
    leaves = {n.label for n in s.nodes("explore.leaf")}
    assert leaves == {"falling pressure", "humidity", "timer set", "water supply"}
    assert e.top_holds and "falling pressure" in e.model.model


def test_depth_three_goes_three_or_and_levels_deep(s):
    chain = ["g0", "a1", "g1", "a2", "g2", "a3", "g3"]
    for i in range(0, 6, 2):
        s.script("OR", chain[i], chain[i + 1])
        s.script("AND", chain[i + 1], chain[i + 2])
    e = s.explore("g0 --prompter t --depth 3").exploration
    assert len(s.server.chats) == 6
    assert [n.label for n in s.nodes("explore.leaf")] == ["g3"]
    assert e.model.model == set(chain)


def test_depth_out_of_range_is_a_one_line_error(s):
    r = s.run("/explore x --depth 9")
    assert isinstance(r, Failure) and "--depth must be from 1 to" in r.message
    assert s.server.chats == []


# -- loops, duplicates, garbage -----------------------------------------------------------

def test_items_that_loop_back_to_the_path_are_not_expanded(s):
    s.script("OR", "wet grass", "Rain\nWet grass")               # the goal itself as an alternative
    s.script("AND", "Rain", "clouds\nthe wet grass\nrain")       # the top goal and the alternative again
    s.script("OR", "clouds", "Rain\nwet grass\nstorm")            # ancestors again, one level down
    e = s.explore("wet grass --prompter t --depth 2").exploration
    loops = [n for n in s.nodes() if n.status == "loop"]
    assert [(n.kind, n.label) for n in loops] == [("explore.or", "Wet grass"), ("explore.and", "the wet grass"),
                                                   ("explore.and", "rain"), ("explore.or", "Rain"),
                                                   ("explore.or", "wet grass")]
    assert e.program.text().splitlines()[:3] == ["'wet grass' :- 'rain'.", "'rain' :- 'clouds'.",
                                                 "'clouds' :- 'storm'."]
    assert e.stats["loops"] == 5 and e.top_holds
    assert len(s.server.chats) == 4   # OR wet grass, AND Rain, OR clouds, AND storm: no loop is asked about


def test_near_duplicates_are_one_atom_and_shared_goals_are_expanded_once(s):
    s.script("OR", "wet grass", "Rain\nrain.\n  RAIN \nThe rain\nSprinkler")
    s.script("AND", "Rain", "clouds\nClouds!")
    s.script("AND", "Sprinkler", "Clouds\ntimer")                # clouds again, under another parent
    s.script("OR", "clouds", "cold front")
    e = s.explore("wet grass --prompter t --depth 2").exploration
    assert [n.label for n in s.nodes("explore.or")][:2] == ["Rain", "Sprinkler"]
    assert e.stats["repeated items"] == 4
    assert sum(1 for c in s.server.chats if c.last_user.startswith("OR <clouds>")) == 1
    assert [n.status for n in s.nodes() if n.label == "Clouds"] == ["seen"]
    assert "'sprinkler' :- 'clouds', 'timer'." in e.program.text()


def test_repeated_clauses_are_merged(s):
    s.script("OR", "wet grass", "Rain\nSprinkler")
    s.script("AND", "Rain", "water")
    s.script("AND", "Sprinkler", "water")
    e = s.explore("wet grass --prompter t --depth 1").exploration
    assert e.program.text().splitlines().count("'water'.") == 1
    assert [n.label for n in s.nodes("explore.leaf")] == ["water", "water"]   # shown under both parents


def test_garbage_lines_are_ignored_and_counted(s):
    s.script("OR", "wet grass", "Sure! Here are some alternatives:\n\n1. **Rain**\n```\n???\n"
                                "This answer line is long commentary that rambles on about the weather for far too long\n"
                                "I hope this helps!")
    s.script("AND", "Rain", "Cause 1: clouds\n---\n2) humidity – air holds water")
    r = s.explore("wet grass --prompter t --depth 1")
    e = r.exploration
    assert e.program.text().splitlines() == ["'wet grass' :- 'rain'.", "'rain' :- 'clouds', 'humidity'.",
                                             "'clouds'.", "'humidity'."]
    assert e.stats["ignored lines"] == 6
    assert "6 ignored lines" in to_text(r)


def test_a_goal_with_no_usable_alternatives_is_a_leaf(s):
    s.script("OR", "wet grass", "???\n!!!")
    e = s.explore("wet grass --prompter t --depth 2").exploration
    assert e.program.text() == "" and not e.top_holds and e.status.startswith("unknown")
    assert [(n.node, n.kind, n.status) for n in s.nodes()] == [("n1", "explore.and", "goal"), ("n1", "explore.and", "unanswered")]


# -- refiners ------------------------------------------------------------------------------

def test_an_oracle_that_rejects_everything_leaves_an_empty_model(s):
    wet_grass(s)
    s.server.reply("False", when=lambda r: r.last_user.startswith("ORACLE"))
    r = s.explore("wet grass --prompter t --depth 1 --refine oracle")
    e = r.exploration
    assert e.model.model == frozenset() and not e.top_holds
    assert "'clouds' :- fail." in e.program.text()
    assert len(s.nodes("explore.rejected")) == 4 and not s.nodes("explore.leaf")
    text = to_text(r)
    assert "top goal: does not hold" in text
    assert "the model is empty: every leaf was rejected by the oracle refiner" in text
    oracle = [c.last_user for c in s.server.chats if c.last_user.startswith("ORACLE")]
    assert "ORACLE <clouds> for <wet grass>" in oracle


def test_an_oracle_keeps_what_it_accepts_and_rejects_what_it_cannot_read(s):
    wet_grass(s)
    s.script("ORACLE", "clouds", "True.")
    s.script("ORACLE", "humidity", "**Yes**")
    s.script("ORACLE", "timer set", "False")
    s.script("ORACLE", "water supply", "Well, it depends on the garden")
    r = s.explore("wet grass --prompter t --depth 1 --refine oracle")
    e = r.exploration
    assert e.model.model == {"wet grass", "rain", "clouds", "humidity"}
    assert e.stats["unreadable answers"] == 1
    rejected = {n.label: n.detail for n in s.nodes("explore.rejected")}
    assert "unreadable oracle answer" in rejected["water supply"]
    assert "leaves: 2 kept, 2 rejected (1 unreadable answers)" in to_text(r)


def test_oracle_integrity_constraints_make_the_program_inconsistent(s):
    wet_grass(s)
    s.server.reply("True", when=lambda r: r.last_user.startswith("ORACLE"))
    s.server.reply("Clouds ; water supply\nunicorns ; clouds", when=lambda r: r.last_user.startswith("CONFLICTS"))
    r = s.explore("wet grass --prompter t --depth 1 --refine oracle")
    e = r.exploration
    assert ":- 'clouds', 'water supply'." in e.program.text()
    assert not e.model.consistent and e.status.startswith("inconsistent (1 integrity constraint")
    assert "violated: :- clouds, 'water supply'." in to_text(r)
    conflicts = next(c.last_user for c in s.server.chats if c.last_user.startswith("CONFLICTS"))
    assert "- clouds\n- humidity\n- timer set\n- water supply" in conflicts


def test_a_rater_clamps_out_of_range_scores_and_rejects_garbage(s):
    wet_grass(s)
    s.script("RATE", "clouds", "150")
    s.script("RATE", "humidity", "73")
    s.script("RATE", "timer set", "-20")
    s.script("RATE", "water supply", "banana")
    r = s.explore("wet grass --prompter t --depth 1 --refine rater --threshold 0.6")
    e = r.exploration
    details = {n.label: n.detail for n in s.nodes() if n.kind in ("explore.leaf", "explore.rejected")}
    assert details["clouds"] == "score 150 out of range, clamped to 100"
    assert details["timer set"] == "score -20 out of range, clamped to 0"
    assert "no score in rater answer 'banana'" in details["water supply"]
    assert e.model.model == {"wet grass", "rain", "clouds", "humidity"}
    assert e.stats["clamped answers"] == 2 and e.stats["unreadable answers"] == 1
    problog = s.run("/export explore-problog").text
    assert "1::'clouds'." in problog and "0.73::'humidity'." in problog
    assert "'timer set' :- fail." in problog and "query('wet grass')." in problog


def test_the_truth_refiner_keeps_leaves_close_to_memory_with_their_support(s):
    s.run("'dense clouds'.")
    s.run("'high humidity' :- 'warm sea'.")
    wet_grass(s)
    r = s.explore("wet grass --prompter t --depth 1 --refine truth --threshold 0.4 --k 1")
    e = r.exploration
    text = e.program.text()
    assert "'clouds' :- 'dense clouds'." in text and "'dense clouds'." in text
    assert "'timer set' :- fail." in text
    assert e.model.model >= {"wet grass", "rain", "clouds", "dense clouds", "humidity"}
    assert "sprinkler" not in e.model.model
    problog = s.run("/export explore-problog").text
    assert "::'clouds' :- 'dense clouds'." in problog


def test_the_truth_refiner_needs_something_in_memory(s):
    r = s.run("/explore wet grass --prompter t --refine truth")
    assert isinstance(r, Failure) and "working memory, which is empty" in r.message
    assert s.server.chats == []


def test_the_truth_refiner_searches_a_stored_workspace(ollama_server, tmp_path):
    shell = open_shell(MemoryOptions(workspace="explore"), record=False)
    try:
        s = Session(ollama_server, shell)
        doc = tmp_path / "weather.txt"
        doc.write_text("Dense clouds bring rain to the lawn. Humidity stays high near the sea.")
        assert not isinstance(s.run(f"/load {doc}"), Failure)
        wet_grass(s)
        e = s.explore("wet grass --prompter t --depth 1 --refine truth --threshold 0.1 --k 1").exploration
        assert "'clouds' :- 'dense clouds bring rain to the lawn humidity stays high near the sea'." in e.program.text()
    finally:
        shell.close()


# -- exports, memory, cache, cancel, errors ---------------------------------------------------

swipl = shutil.which("swipl")


@pytest.mark.skipif(swipl is None, reason="SWI-Prolog (swipl) is not installed (apt-get install swi-prolog-nox)")
def test_swi_prolog_consults_the_export_and_derives_the_same_model(s, tmp_path):
    s.script("OR", "wet grass", "Rain\nSprinkler\nHalt")              # 'halt' must not stop Prolog
    s.script("AND", "Rain", "clouds\nhumidity")
    s.script("AND", "Sprinkler", "timer set\nRain")                   # a cycle-free shared goal
    s.script("AND", "Halt", "it's late")
    s.script("OR", "clouds", "cold front\nwet grass")                 # a loop back to the top
    s.script("ORACLE", "timer set", "False")
    s.server.reply("True", when=lambda r: r.last_user.startswith("ORACLE"))
    e = s.explore("wet grass --prompter t --depth 2 --refine oracle").exploration
    out = tmp_path / "explore.pl"
    assert "wrote" in s.run(f"/export explore-prolog {out}").text
    goal = (f"consult('{out}'), explore_model(M), msort(M, S), "
            "forall(member(A, S), (write(A), nl)), (constraint_violated(_) -> writeln('% violated') ; true), halt")
    proc = subprocess.run([swipl, "-q", "-g", goal], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "Warning" not in proc.stderr and "error" not in proc.stderr.lower()
    assert proc.stdout.splitlines() == sorted(e.model.model)
    assert "halt (item)" in e.model.model and "its late" in e.model.model


def test_dot_export_draws_the_tree(s):
    wet_grass(s)
    s.explore("wet grass --prompter t --depth 1")
    dot = s.run("/export explore-dot").text
    assert dot.startswith("digraph explore {") and dot.count(" -> ") == 6
    assert 'label="Rain", shape=box' in dot


def test_exporting_before_exploring_says_what_to_do(s):
    s.run("/explore show")   # installs the exporters, then fails: nothing explored yet
    r = s.run("/export explore-prolog")
    assert isinstance(r, Failure) and r.message == "nothing explored yet in this memory"


def test_add_puts_the_program_into_memory_without_failing_clauses(s):
    wet_grass(s)
    s.script("ORACLE", "timer set", "False")
    s.server.reply("True", when=lambda r: r.last_user.startswith("ORACLE"))
    r = s.explore("wet grass --prompter t --depth 1 --refine oracle --add")
    assert r.added == 7 and "added 7 clauses to memory" in to_text(r)
    assert s.run("?- 'wet grass'.").answer.truth == "true"
    assert s.run("?- sprinkler.").answer.truth == "false"
    assert s.run("/explore add").duplicates == 7


def test_rerunning_at_temperature_zero_makes_no_new_model_calls(s):
    wet_grass(s)
    s.server.reply("55", when=lambda r: r.last_user.startswith("RATE"))
    first = s.explore("wet grass --prompter t --depth 1 --refine rater").exploration
    served = len(s.server.chats)
    before = s.shell.ctx.llm.stats()
    again = s.explore("wet grass --prompter t --depth 1 --refine rater").exploration
    after = s.shell.ctx.llm.stats()
    assert len(s.server.chats) == served == 7
    assert after["calls"] - before["calls"] == after["cached"] - before["cached"] == 7
    assert again.stats["cached"] == again.stats["llm calls"] == 7
    assert again.program.text() == first.program.text()


def test_cancelling_stops_the_exploration_and_keeps_nothing(ollama_server):
    holder: dict = {}

    def emit(event):
        if isinstance(event, TraceNode) and event.kind == "explore.or":
            holder["shell"].ctx.cancel.set()
    shell = Shell(emit=emit)
    holder["shell"] = shell
    s = Session(ollama_server, shell)
    shell.ctx.emit = emit
    wet_grass(s)
    r = s.run("/explore wet grass --prompter t --depth 1 --add")
    assert isinstance(r, Failure) and r.exit_code == 130
    assert len(ollama_server.chats) == 1 and not shell.memory.items
    assert isinstance(s.run("/explore show"), Failure)
    assert not shell.ctx.cancel.is_set()


def test_a_failing_model_call_is_one_line_and_changes_nothing(s):
    s.shell.ctx.settings.llm_retries = 0
    wet_grass(s)
    s.server.fail("server", when="AND <Sprinkler>")
    r = s.run("/explore wet grass --prompter t --depth 1 --add")
    assert isinstance(r, Failure) and "\n" not in r.message
    assert not s.shell.memory.items


def test_bad_options_are_one_line_errors(s):
    for args, problem in [("", "what should be explored?"), ("x --prompter nope", "unknown prompter 'nope'"),
                          ("x --refine magic", "unknown refiner 'magic'"), ("x --threshold 2", "--threshold must be"),
                          ("x --depth two", "--depth wants a number"), ("x --colour red", "unknown option --colour")]:
        r = s.run(f"/explore {args}")
        assert isinstance(r, Failure) and problem in r.message, (args, r.message)
    assert s.server.chats == []


def test_the_builtin_causal_pack_explores_with_its_own_prompts(s):
    s.server.reply("Rain\nSprinkler", when='could bring about "wet grass"')
    s.server.reply("clouds", when='Suppose "Rain"')
    e = s.explore('"wet grass" --depth 1').exploration
    assert e.prompter == "causal" and "'rain' :- 'clouds'." in e.program.text()


# -- /prompters ----------------------------------------------------------------------------

def test_prompters_lists_builtin_and_plugin_packs(s):
    rows = {name: note for name, _, note in s.run("/prompters").rows}
    assert {"causal", "consequence", "planning", "recommendation", "science", "pro", "con"} <= set(rows)
    assert rows["causal"].startswith("built-in") and rows["t"].startswith("plugin tests")


def test_workspace_packs_override_and_bad_ones_are_reported(ollama_server):
    from sym.core.memory.workspace import workspace_dir

    shell = open_shell(MemoryOptions(workspace="packs"), record=False)
    try:
        s = Session(ollama_server, shell)
        d = workspace_dir("packs") / "prompters"
        d.mkdir(parents=True)
        (d / "causal.toml").write_text('description = "my causes"\n[prompts]\nor = "MY OR <$g>"\nand = "MY AND <$g>"\n')
        (d / "broken.toml").write_text('[prompts]\nor = "no goal here"\nand = "$g"\n')
        table = s.run("/prompters")
        rows = {name: (desc, note) for name, desc, note in table.rows}
        assert rows["causal"][0] == "my causes" and "overrides built-in" in rows["causal"][1]
        assert str(d) in table.title
        problems = [desc for name, desc, _ in table.rows if name == "(problem)"]
        assert problems == [f"prompter pack {d / 'broken.toml'}: prompts.or: never mentions the goal $g"]
        assert any(isinstance(e, Warning) and "broken.toml" in e.message for e in s.events)
        s.server.reply("Rain", when="MY OR <wet grass>")
        e = s.explore("wet grass --depth 1").exploration
        assert "'wet grass' :- 'rain'." in e.program.text()
    finally:
        shell.close()
