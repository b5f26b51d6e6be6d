"""Honest answers: /ask is three-valued by default and says what would settle an unknown; the
closed world answers a negated question by negation as failure; memory that derives p and ~p
answers `inconsistent` with both derivations, and the command that made it so says it at once;
an operation whose item is not where the sentence says changes nothing and says so."""

from __future__ import annotations

import json
import os
import subprocess

from sym.repl.render import to_text
from tests.ollama_server import unused_url

PENGUINS = "Penguins are birds. Penguins do not fly. Birds fly. Tweety is a penguin."


def no_model(sym):
    sym.shell.ctx.settings.ollama_host = unused_url()
    sym.shell.ctx.settings.llm_retries = 0


# -- part 7: three values, the closed world on request ----------------------------------------

def test_what_memory_cannot_settle_is_unknown_and_says_what_would_settle_it(sym):
    no_model(sym)
    sym("/tell Rex is a dog.")
    yes = sym("/ask Is Rex a cat?")
    no = sym("/ask Is Rex not a cat?")
    assert (yes.outcome.answer, no.outcome.answer) == ("unknown", "unknown")
    assert yes.outcome.verified and no.outcome.verified          # no model: memory's answer stays
    assert "nothing in memory says cat(rex) or ~cat(rex)" in yes.outcome.settle
    assert to_text(yes).startswith("unknown — nothing in memory says cat(rex) or ~cat(rex)")
    assert yes.to_dict()["settle"] == yes.outcome.settle and "no model answered" in yes.outcome.note


def test_the_closed_world_reads_not_derivable_as_false_and_not_p_by_negation_as_failure(sym):
    no_model(sym)
    sym("/tell Rex is a dog. Bob is big.")
    assert sym("/ask --closed Is Rex a cat?").outcome.answer == "false"
    assert sym("/ask --closed Is Rex not a cat?").outcome.answer == "true"
    assert sym("/ask --closed Is Rex big?").outcome.answer == "false"
    negated = sym("/ask --closed Is Rex not big?").outcome
    assert negated.answer == "true" and any("big(rex) is not derivable" in s for s in negated.steps)
    assert sym("/ask --closed Is Bob not big?").outcome.answer == "false"      # big(bob) is derived
    assert sym("/set world closed").ok
    assert (sym("/ask Is Rex big?").outcome.answer, sym("/ask Is Rex not big?").outcome.answer) == ("false", "true")
    assert sym("/ask --open Is Rex big?").outcome.answer == "unknown"


def test_auto_is_the_default_open_for_ask_closed_for_queries(sym):
    no_model(sym)
    assert sym.shell.ctx.settings.world == "auto"
    sym("/tell Rex is a dog. Bob is big.")
    assert sym("/ask Is Rex big?").outcome.answer == "unknown"
    assert sym("?- big(rex).").answer.truth == "false"                          # Prolog's closed world
    assert sym("/set world open").ok
    assert sym("?- big(rex).").answer.truth == "unknown"
    assert sym("/set world closed").ok and sym("/set world auto").ok
    assert sym("/ask Is Rex big?").outcome.answer == "unknown"
    bad = sym("/set world sometimes")
    assert not bad.ok and "\n" not in bad.message


def test_a_strong_negation_told_is_a_false_answer_in_both_worlds(sym):
    sym("/tell Bob is not tall.")
    for flag in ("", "--closed "):
        out = sym(f"/ask {flag}Is Bob tall?").outcome
        assert out.answer == "false" and any(s.startswith("~tall(bob)") for s in out.steps)
        assert sym(f"/ask {flag}Is Bob not tall?").outcome.answer == "true"


def test_an_unheard_question_still_falls_back_to_a_model_as_unverified(llm_sym):
    llm_sym("/tell Rex is a dog.")
    llm_sym.server.reply("Probably not.", when=lambda r: r.format is None)
    out = llm_sym("/ask Is Rex a cat?").outcome
    assert out.answer == "Probably not." and not out.verified
    assert "nothing in memory says cat(rex) or ~cat(rex)" in out.settle        # what memory alone says
    assert "memory alone: nothing in memory says" in to_text(llm_sym("/ask Is Rex a cat?"))


def test_a_decided_relation_or_value_question_asks_no_model(llm_sym):
    llm_sym("/tell James is the son of Frances. Natasha is the daughter of James. "
            "If B is the son of A, and C is the daughter of B, then C is the granddaughter of A.")
    llm_sym.server.reply("a guess", when=lambda r: r.format is None)
    relation = llm_sym("/ask How is Natasha related to Frances?").outcome
    assert relation.answer == "Natasha is the granddaughter of Frances." and relation.verified
    assert llm_sym("/ask Who is the daughter of James?").outcome.answer == "Natasha"
    assert llm_sym.server.chats == []


def test_a_babi_style_script_answers_no_false_its_facts_do_not_entail(sym_exe, tmp_path):
    script = tmp_path / "babi.sym"
    questions = {
        "Is the square to the left of the triangle?": "unknown",
        "Is the triangle to the left of the square?": "unknown",     # no transitivity rule told
        "Is the chest bigger than the box?": "unknown",
        "Is the circle to the left of the triangle?": "unknown",
        "Is the triangle to the left of the circle?": "true",
        "Is the box bigger than the chest?": "true",
        "Is the circle bigger than the box?": "false",                # told: its strong negation
        "Is the circle not bigger than the box?": "true",
    }
    script.write_text("/tell The triangle is to the left of the circle. The circle is to the left of the square. "
                      "The box is bigger than the chest. The circle is not bigger than the box.\n"
                      + "".join(f"/ask {q}\n" for q in questions))
    env = {**os.environ, "OLLAMA_HOST": unused_url()}
    run = subprocess.run([*sym_exe, "--batch", str(script), "--json"], capture_output=True, text=True,
                         timeout=120, env=env)
    assert run.returncode == 0, run.stderr
    asked = {r["input"].removeprefix("/ask "): r for r in map(json.loads, run.stdout.splitlines())
             if r["command"] == "/ask"}
    assert {q: r["answer"] for q, r in asked.items()} == questions
    false = [r for r in asked.values() if r["answer"] == "false"]
    assert all(any(s.startswith("~bigger_than(circle, box)") for s in r["steps"]) for r in false)
    assert all(r["verified"] and r["llm_calls"] == 0 for r in asked.values())
    assert asked["Is the chest bigger than the box?"]["settle"] == \
        "nothing in memory says bigger_than(chest, box) or ~bigger_than(chest, box)"


# -- part 8: contradictions surface -----------------------------------------------------------

def test_a_question_about_a_clash_answers_inconsistent_with_both_derivations_and_the_items(sym):
    told = sym(f"/tell {PENGUINS}")
    ids = {it.nl: it.id for s in told.sentences for it in s.items}
    for question, goal in (("Does Tweety fly?", "flies(tweety)"), ("Does Tweety not fly?", "~flies(tweety)")):
        r = sym(f"/ask {question}")
        out = r.outcome
        assert out.goal == goal and out.answer == "inconsistent" and out.verified
        sides = dict(out.derivations)
        assert list(sides) == ["flies(tweety)", "~flies(tweety)"]
        assert sides["flies(tweety)"][-1].startswith("flies(tweety).  by " + ids["Birds fly."])
        assert sides["~flies(tweety)"][-1].startswith("~flies(tweety).  by " + ids["Penguins do not fly."])
        assert {it["id"] for it in out.clash} == set(ids.values())
        text = to_text(r)
        assert text.startswith("inconsistent — memory derives both flies(tweety) and ~flies(tweety)")
        assert "clashing items:" in text and all(i in text for i in ids.values())
        assert r.to_dict()["derivations"]["~flies(tweety)"] == sides["~flies(tweety)"]
        assert r.status == "inconsistent"


def test_a_tell_that_makes_memory_inconsistent_says_so_in_one_line_naming_the_items(sym):
    first = sym("/tell Penguins are birds. Penguins do not fly. Birds fly.")
    assert first.warnings == []
    r = sym("/tell Tweety is a penguin.")
    [line] = r.warnings
    assert line.startswith("memory is now inconsistent: flies(tweety) and ~flies(tweety) — from ")
    for it in [*first.sentences[0].items, *first.sentences[1].items, *r.sentences[0].items]:
        assert f"{it.id} '{it.nl}'" in line
    assert "\n" not in line and f"warning: {line}" in to_text(r)
    assert r.to_dict()["warnings"] == [line]
    assert "penguin(tweety)." in {it.text for it in sym.shell.memory.items.values()}    # a warning: it stays


def test_only_new_clashes_are_reported(sym):
    sym(f"/tell {PENGUINS}")
    assert sym("/fact likes(tweety, fish).").warnings == []           # memory was inconsistent already
    assert sym("/fact bird(tweety).").warnings == []                  # the same clash, once more
    sym("/forget likes(tweety, fish)")                                # the model is out of date now
    assert sym("/fact penguin(tweety).").duplicates == 1
    assert sym("/fact flies(tweety).").warnings == []                 # told outright: still the old clash
    assert sym("/fact likes(tweety, worms).").warnings == []
    again = sym("/fact penguin(pingu).")
    [line] = again.warnings
    assert "flies(pingu) and ~flies(pingu)" in line and "penguin(pingu)." in line


def test_fact_rule_and_consult_warn_too(sym, tmp_path):
    assert sym("/fact ~flies(tweety).").warnings == []
    r = sym("/fact flies(tweety).")
    assert r.warnings and "flies(tweety) and ~flies(tweety)" in r.warnings[0]
    assert "warning: memory is now inconsistent" in to_text(r)
    sym("/fact a(x).")
    constraint = sym("/rule :- a(X), b(X).")
    assert constraint.warnings == []
    program = tmp_path / "b.pl"
    program.write_text("b(x).\nb(y).\n")
    consulted = sym(f"/consult {program}")
    [line] = consulted.warnings
    assert "violated by a(x), b(x)" in line and "'b(x).'" in line and "'a(x).'" in line
    assert "warning: memory is now inconsistent" in to_text(consulted)
    assert sym("/rule c(X) :- d(X).").warnings == []


def test_memory_without_negation_or_constraints_is_not_checked(sym, monkeypatch):
    from sym.core.memory.working import WorkingMemory

    def refuse(*args, **kwargs):
        raise AssertionError("no clash check was needed")

    monkeypatch.setattr(WorkingMemory, "violations", refuse)
    assert sym("/fact p(a). p(b).").ok
    assert sym("/rule q(X) :- p(X).").ok
    assert sym("/tell Bob is big.").ok


# -- part 5 (one piece): a failed precondition says so ----------------------------------------

def test_an_operation_whose_item_is_not_there_changes_nothing_and_says_so(sym):
    sym("/tell Box 1 contains the cup. Box 2 contains the key.")
    before = {it.text for it in sym.shell.memory.items.values()}
    moved = sym("/tell Move the shoe from Box 1 to Box 2.")
    assert moved.ok and moved.sentences[0].warning == "the shoe is not in Box 1: nothing moved"
    assert moved.sentences[0].outcome == "skipped" and "  warning: the shoe is not in Box 1" in to_text(moved)
    removed = sym("/tell Remove the shoe from Box 1.")
    assert removed.sentences[0].to_dict()["warning"] == "the shoe is not in Box 1: nothing removed"
    assert {it.text for it in sym.shell.memory.items.values()} == before
    both = sym("/tell Move the cup and the shoe from Box 1 to Box 2. Box 3 contains the hat.")
    assert both.ok and both.sentences[0].warning == "the shoe is not in Box 1: not moved"
    assert both.sentences[0].outcome == "stored" and both.sentences[1].warning == ""
    assert "contains(box_2, cup)." in {it.text for it in sym.shell.memory.items.values()}
    fine = sym("/tell Move the cup from Box 2 to Box 1. Remove the key from Box 2.")
    assert [s.warning for s in fine.sentences] == ["", ""]
