"""AR-LSAT through the proof DSL against the Ollama-protocol test server: the model writes one
program per puzzle, Z3 decides each option, the question type picks the letter, interpreter
errors go back to the model, and a model that never writes a valid program fails cleanly."""

from __future__ import annotations

import io
import json

import pytest

from sym.core.reason.swm.datasets import Problem
from sym.core.run import Run
from sym.repl.bench import make_llm, run_swm
from sym.repl.bench.lsat import answer_lsat
from sym.repl.bench.swm_evaluate import evaluate

MODEL = "llama3.1:8b"

SEATING = ("Three friends, Ann, Ben and Cal, sit in seats 1, 2 and 3, one to a seat. "
           "Ann does not sit in seat 1. Ben sits in a lower-numbered seat than Cal.")


def seating_program(verifications: dict[str, str], *, extra_rule: str | None = None) -> dict:
    """The program a model would write for SEATING, with one verification per option letter."""
    rules = [{"name": "Ann does not sit in seat 1", "constraint": "seat(ann) != 1"},
             {"name": "Ben sits lower than Cal", "constraint": "seat(ben) < seat(cal)"}]
    if extra_rule:
        rules.append({"name": "extra", "constraint": extra_rule})
    return {"sorts": [{"name": "Person", "type": "EnumSort", "values": ["ann", "ben", "cal"]}],
            "functions": [{"name": "seat", "domain": ["Person"], "range": "IntSort"}],
            "variables": [{"name": "p", "sort": "Person"}],
            "knowledge_base": [{"name": "seats 1-3", "assertion": "ForAll([p], And(seat(p) >= 1, seat(p) <= 3))"},
                               {"name": "one per seat", "assertion": "Distinct(seat(ann), seat(ben), seat(cal))"}],
            "rules": rules,
            "verifications": [{"name": k, "constraint": v} for k, v in verifications.items()],
            "actions": ["verify_conditions"]}


def order(a: str, b: str, c: str) -> str:
    return f"And(seat({a}) == 1, seat({b}) == 2, seat({c}) == 3)"


ORDER_OPTIONS = ["A) Ann, Ben, Cal", "B) Ben, Ann, Cal", "C) Cal, Ann, Ben", "D) Ann, Cal, Ben", "E) Cal, Ben, Ann"]
ORDER_PROGRAM = seating_program({"A": order("ann", "ben", "cal"), "B": order("ben", "ann", "cal"),
                                 "C": order("cal", "ann", "ben"), "D": order("ann", "cal", "ben"),
                                 "E": order("cal", "ben", "ann")})


def problem(question: str, options: list[str], pid: str = "seating-1", gold: str = "") -> Problem:
    return Problem("lsat-ar", pid, [SEATING], [], question, gold, options=options, context=SEATING)


@pytest.fixture
def llm(ollama_server):
    return make_llm("on", MODEL, ollama_server.url)


def chats(server):
    return server.requests_to("/api/chat")


def test_the_one_option_that_could_be_true_is_chosen_without_further_calls(ollama_server, llm):
    ollama_server.reply(json.dumps(ORDER_PROGRAM))
    question = "Which one of the following could be the seating, from seat 1 through seat 3?"
    letter, detail = answer_lsat(problem(question, ORDER_OPTIONS), Run.using(llm, "lsat"))
    assert letter == "B"
    assert detail["verified"] is True
    assert detail["question_type"] == "could be true"
    assert detail["statuses"] == {"A": "refuted", "B": "unknown", "C": "refuted", "D": "refuted", "E": "refuted"}
    assert detail["attempts"] == 1 and detail["errors"] == []
    sent = chats(ollama_server)
    assert len(sent) == 1                                # the program, and nothing else
    checks = sent[0].format["properties"]["verifications"]     # schema-constrained: one per option, by letter
    assert checks["minItems"] == checks["maxItems"] == 5 and "verifications" in sent[0].format["required"]
    assert sent[0].format["$defs"]["Verification"]["properties"]["name"]["enum"] == list("ABCDE")
    assert "Ann does not sit in seat 1" in sent[0].last_user
    assert "B) Ben, Ann, Cal" in sent[0].last_user and "A) A)" not in sent[0].last_user


def test_must_be_true_picks_the_proved_option(ollama_server, llm):
    ollama_server.reply(json.dumps(seating_program({
        "A": "seat(ann) == 2", "B": "seat(cal) == 3", "C": "seat(ben) == 1",
        "D": "seat(ann) == 1", "E": "seat(cal) == 1"})))
    options = ["Ann sits in seat 2.", "Cal sits in seat 3.", "Ben sits in seat 1.", "Ann sits in seat 1.",
               "Cal sits in seat 1."]
    letter, detail = answer_lsat(problem("Which one of the following must be true?", options), Run.using(llm, "lsat"))
    assert (letter, detail["verified"]) == ("C", True)
    assert detail["statuses"] == {"A": "unknown", "B": "unknown", "C": "proved", "D": "refuted", "E": "refuted"}
    assert len(chats(ollama_server)) == 1


def test_except_picks_the_odd_one_out(ollama_server, llm):
    ollama_server.reply(json.dumps(seating_program({
        "A": "seat(ann) == 2", "B": "seat(cal) == 2", "C": "seat(ann) == 3",
        "D": "seat(cal) == 1", "E": "seat(ben) == 1"})))
    options = ["Ann sits in seat 2.", "Cal sits in seat 2.", "Ann sits in seat 3.", "Cal sits in seat 1.",
               "Ben sits in seat 1."]
    letter, detail = answer_lsat(problem("Each of the following could be true EXCEPT:", options), Run.using(llm, "lsat"))
    assert (letter, detail["verified"]) == ("D", True)     # the only option that cannot be true
    assert detail["question_type"] == "could be true EXCEPT"
    assert len(chats(ollama_server)) == 1


def test_a_type_error_goes_back_and_the_fixed_program_answers(ollama_server, llm):
    broken = seating_program({"A": order("ann", "ben", "cal"), "B": order("ben", "ann", "cal"),
                              "C": order("cal", "ann", "ben"), "D": order("ann", "cal", "ben"),
                              "E": order("cal", "ben", "ann")}, extra_rule="seat(ann) == ben")
    ollama_server.reply(json.dumps(broken), json.dumps(ORDER_PROGRAM))
    question = "Which one of the following could be the seating, from seat 1 through seat 3?"
    letter, detail = answer_lsat(problem(question, ORDER_OPTIONS), Run.using(llm, "lsat"))
    assert (letter, detail["attempts"]) == ("B", 2)
    assert len(detail["errors"]) == 1 and "sort mismatch" in detail["errors"][0]
    sent = chats(ollama_server)
    assert len(sent) == 2
    assert "sort mismatch" in sent[1].last_user            # the interpreter's error went back
    assert sent[1].messages[-2]["role"] == "assistant"     # with the program it is about


def test_options_the_program_leaves_out_are_sent_back(ollama_server, llm):
    partial = seating_program({"A": order("ann", "ben", "cal"), "B": order("ben", "ann", "cal")})
    ollama_server.reply(json.dumps(partial), json.dumps(ORDER_PROGRAM))
    question = "Which one of the following could be the seating, from seat 1 through seat 3?"
    letter, detail = answer_lsat(problem(question, ORDER_OPTIONS), Run.using(llm, "lsat"))
    assert (letter, detail["attempts"]) == ("B", 2)
    assert "no verification for options C, D, E" in chats(ollama_server)[1].last_user


def test_a_tie_is_broken_by_the_model_and_marked_unverified(ollama_server, llm):
    program = seating_program({"A": order("ann", "ben", "cal"), "B": order("ben", "ann", "cal"),
                               "C": order("ben", "cal", "ann"), "D": order("ann", "cal", "ben"),
                               "E": order("cal", "ben", "ann")})
    ollama_server.reply(json.dumps(program), when=lambda r: r.format is not None)
    ollama_server.reply("Ben must be first; both fit, but I pick the second.\nAnswer: C",
                        when=lambda r: r.format is None)
    options = ["A) Ann, Ben, Cal", "B) Ben, Ann, Cal", "C) Ben, Cal, Ann", "D) Ann, Cal, Ben", "E) Cal, Ben, Ann"]
    question = "Which one of the following could be the seating, from seat 1 through seat 3?"
    letter, detail = answer_lsat(problem(question, options), Run.using(llm, "lsat"))
    assert letter == "C"
    assert detail["verified"] is False and detail["fallback"] is True
    assert detail["candidates"] == ["B", "C"]
    pick = chats(ollama_server)[1]
    assert "B) Ben, Ann, Cal" in pick.last_user and "C) Ben, Cal, Ann" in pick.last_user
    assert "A) Ann, Ben, Cal" not in pick.last_user        # only the tied options are offered


def test_a_model_that_never_writes_a_valid_program_fails_cleanly(ollama_server, llm):
    ollama_server.reply(json.dumps(seating_program({"A": "seat(dan) == 1"})))    # dan is not declared
    question = "Which one of the following could be the seating, from seat 1 through seat 3?"
    letter, detail = answer_lsat(problem(question, ORDER_OPTIONS), Run.using(llm, "lsat"), attempts=3)
    assert letter == ""
    assert detail["attempts"] == 3 and len(detail["errors"]) == 3
    assert "after 3 attempts" in detail["error"] and "dan" in detail["error"]
    assert len(chats(ollama_server)) == 3                  # no unverified guess after a failure


def test_the_bench_scores_lsat_through_the_solver(ollama_server, llm, tmp_path):
    folder = tmp_path / "data" / "lsat-ar"
    folder.mkdir(parents=True)
    question = "Which one of the following could be the seating, from seat 1 through seat 3?"
    records = [{"id": "s1", "context": SEATING, "question": question, "options": ORDER_OPTIONS, "answer": "B"},
               {"id": "s2", "context": SEATING + " Dan watches.", "question": question,
                "options": ORDER_OPTIONS, "answer": "B"}]
    (folder / "puzzles.json").write_text(json.dumps(records))
    ollama_server.reply(json.dumps(ORDER_PROGRAM), when="Dan watches")
    ollama_server.reply(json.dumps(seating_program({"A": "seat(dan) == 1"})))   # never valid for s1
    score = evaluate(tmp_path / "data", "lsat-ar", llm=llm)
    assert (score.n, score.correct) == (2, 1)
    assert score.llm_calls == 3 + 1
    [(message, count)] = score.failures.items()
    assert count == 1 and message.startswith("no valid program after N attempts")      # like ones grouped


def test_sym_bench_swm_json_runs_lsat_against_a_server(ollama_server, tmp_path):
    folder = tmp_path / "data" / "lsat-ar"
    folder.mkdir(parents=True)
    question = "Which one of the following could be the seating, from seat 1 through seat 3?"
    (folder / "dev.json").write_text(json.dumps(
        [{"id": "s1", "context": SEATING, "question": question, "options": ORDER_OPTIONS, "answer": "B"}]))
    ollama_server.reply(json.dumps(ORDER_PROGRAM))
    out = io.StringIO()
    assert run_swm(str(tmp_path / "data"), modes=["hybrid"], datasets=["lsat-ar"], gold_facts=True,
                   llm_mode="on", model=MODEL, host=ollama_server.url, as_json=True, limit=None, out=out, err=io.StringIO()) == 0
    item, row = map(json.loads, out.getvalue().splitlines())           # the item's line, then the totals
    assert (item["type"], item["item"], item["answer"], item["by"]) == ("item", "s1", "B", "sym")
    assert (row["dataset"], row["n"], row["correct"], row["llm_calls"]) == ("lsat-ar", 1, 1, 1)


def test_rules_that_contradict_each_other_go_back_with_the_core(ollama_server, llm):
    clash = seating_program({"A": order("ann", "ben", "cal"), "B": order("ben", "ann", "cal"),
                             "C": order("cal", "ann", "ben"), "D": order("ann", "cal", "ben"),
                             "E": order("cal", "ben", "ann")}, extra_rule="seat(ann) == 1")
    ollama_server.reply(json.dumps(clash), json.dumps(ORDER_PROGRAM))
    question = "Which one of the following could be the seating, from seat 1 through seat 3?"
    letter, detail = answer_lsat(problem(question, ORDER_OPTIONS), Run.using(llm, "lsat"))
    assert (letter, detail["attempts"]) == ("B", 2)
    feedback = chats(ollama_server)[1].last_user
    assert "contradict" in feedback and "Ann does not sit in seat 1" in feedback and "extra" in feedback


def test_a_question_the_solver_cannot_decide_is_left_to_the_model_unverified(ollama_server, llm):
    ollama_server.reply("Answer: (A)")
    question = "Which one of the following, if substituted for the rule that Ann does not sit in seat 1, " \
               "would have the same effect?"
    options = ["Ann sits in seat 2 or 3.", "Ben sits in seat 1.", "Cal sits in seat 3.", "Ann sits next to Ben.",
               "Cal sits in seat 1."]
    letter, detail = answer_lsat(problem(question, options), Run.using(llm, "lsat"))
    assert (letter, detail["verified"], detail["question_type"]) == ("A", False, None)
    sent = chats(ollama_server)
    assert len(sent) == 1 and sent[0].format is None      # no program: nothing for Z3 to decide


def test_a_model_timeout_moves_on_to_the_next_attempt_as_for_prove(ollama_server, llm):
    llm.settings.llm_timeout, llm.settings.llm_retries = 0.5, 0
    ollama_server.fail("slow", delay=3)
    ollama_server.reply(json.dumps(ORDER_PROGRAM))
    question = "Which one of the following could be the seating, from seat 1 through seat 3?"
    letter, detail = answer_lsat(problem(question, ORDER_OPTIONS), Run.using(llm, "lsat"))
    assert (letter, detail["attempts"]) == ("B", 2)
    assert "did not answer within 0.5 s" in detail["errors"][0]


def test_a_step_wise_option_is_read_with_its_question(ollama_server, llm):
    """Seen with the reference model on AR-LSAT: "E) used jazz, used pop, …" for "Which one of the
    following could be the complete list of CDs on sale?" written with on_sale, and refused as a
    word the option does not say. The option is read with its question."""
    from sym.core.reason.pot.tasks import Encoding

    shelf = "A store has three CDs: jazz, pop and soul. Jazz is on sale. Soul is not on sale."
    kinds = {"sorts": [{"name": "Cd", "closed": True, "members": ["jazz", "pop", "soul"]}]}
    words = {"functions": [{"name": "on_sale", "args": ["Cd"], "result": "Bool", "position": False}]}
    options = ["A) jazz, pop", "B) soul", "C) pop, soul"]
    ollama_server.reply(json.dumps(kinds), when="Step 1: the kinds")
    ollama_server.reply(json.dumps(words), when="Step 2: the words")
    said = {"A": "And(on_sale(jazz), on_sale(pop))", "B": "on_sale(soul)", "C": "And(on_sale(pop), on_sale(soul))"}
    ollama_server.reply(json.dumps({"lines": [
        {"text": "A store has three CDs: jazz, pop and soul.", "form": "none"},
        {"text": "Jazz is on sale.", "form": "formula", "formula": "on_sale(jazz)"},
        {"text": "Soul is not on sale.", "form": "formula", "formula": "Not(on_sale(soul))"},
        *({"text": o, "form": "formula", "formula": said[o[0]]} for o in options)]}), when="Step 3:")
    question = "Which one of the following could be among the CDs on sale?"
    letter, detail = answer_lsat(Problem("lsat-ar", "cds", [shelf], [], question, "", options=options, context=shelf),
                                 Run.using(llm, "lsat"), encoding=Encoding("json", "steps"))
    assert (letter, detail["verified"]) == ("A", True), detail
    assert not any("says" in e for e in detail["errors"]), detail


def test_step_wise_options_are_voted_over_samples(ollama_server, llm):
    """`--samples K` with `--style steps` on a multiple-choice item: the sorts and functions once,
    the formulas drawn K times, and the letter the vote of the programs that leave one option (it
    wrote one program whatever K was)."""
    from sym.core.reason.pot.tasks import Encoding

    shelf = "A store has three CDs: jazz, pop and soul. Jazz is on sale. Soul is not on sale."
    kinds = {"sorts": [{"name": "Cd", "closed": True, "members": ["jazz", "pop", "soul"]}]}
    words = {"functions": [{"name": "on_sale", "args": ["Cd"], "result": "Bool", "position": False}]}
    options = ["A) jazz", "B) soul"]
    ollama_server.reply(json.dumps(kinds), when="Step 1: the kinds")
    ollama_server.reply(json.dumps(words), when="Step 2: the words")

    def lines(jazz: str) -> str:
        return json.dumps({"lines": [
            {"text": "A store has three CDs: jazz, pop and soul.", "form": "none"},
            {"text": "Jazz is on sale.", "form": "formula", "formula": jazz},
            {"text": "Soul is not on sale.", "form": "formula", "formula": "Not(on_sale(soul))"},
            {"text": "A) jazz", "form": "formula", "formula": "on_sale(jazz)"},
            {"text": "B) soul", "form": "formula", "formula": "on_sale(soul)"}]})
    replies = {7001: lines("on_sale(jazz)"), 7002: lines("Not(on_sale(jazz))"), 7003: lines("on_sale(jazz)")}
    for seed, text in replies.items():
        ollama_server.reply(text, when=lambda r, s=seed: "Step 3:" in r.last_user and r.options.get("seed") == s)
    question = "Which one of the following must be on sale?"
    letter, detail = answer_lsat(Problem("lsat-ar", "cds", [shelf], [], question, "", options=options, context=shelf),
                                 Run.using(llm, "lsat"), encoding=Encoding("json", "steps"), samples=3)
    assert (letter, detail["verified"]) == ("A", True), detail
    assert detail["tally"] == {"A": 2}, detail                 # the sample that denied jazz decided nothing
    step3 = [c for c in chats(ollama_server) if "Step 3:" in c.last_user]
    assert sorted(c.options.get("seed") for c in step3) == [7001, 7002, 7003]
    assert len([c for c in chats(ollama_server) if "Step 2: the words" in c.last_user]) == 1   # declared once
