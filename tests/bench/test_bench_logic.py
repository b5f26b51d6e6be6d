"""`sym bench logic` on outside-suite items: the English bridge with no model from the command line,
and the proof path beside the model alone against the Ollama-protocol test server (real `ollama`
client): a True/False/Uncertain item through a checked claim, a multiple-choice item through a
program per option, a yes/no item, and an item no program checks (counted by its reason)."""

from __future__ import annotations

import io
import json
import re
import subprocess

from sym.repl.bench import run_logic

MODEL = "llama3.1:8b"
FOLIO_Q = "Based on the above information, is the following statement true, false, or uncertain? {}"
CATS = "Every cat is an animal. Tom is a cat. No dog is a cat. Rex is a dog."


def truth_item(pid: str, claim: str, answer: str, options=("A) True", "B) False", "C) Uncertain")) -> dict:
    return {"id": pid, "context": CATS, "question": FOLIO_Q.format(claim), "options": list(options), "answer": answer}


def write(tmp_path, items, name="folio_tiny.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(items))
    return str(path)


def test_the_bridge_answers_true_false_uncertain_items_with_no_model_from_the_command_line(sym_exe, tmp_path):
    file = write(tmp_path, [truth_item("t1", "Tom is an animal.", "A"),
                            truth_item("t2", "Rex is a cat.", "B"),
                            truth_item("t3", "Rex is an animal.", "A", ("A) Unknown", "B) True", "C) False")),
                            truth_item("t4", "Tom is a dog.", "A")])      # gold says True: the bridge says Uncertain
    run = subprocess.run([*sym_exe, "bench", "logic", "--data", file, "--llm", "off", "--path", "ask"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    header, row = run.stdout.splitlines()
    assert header.split()[:11] == ["data", "system", "n", "correct", "accuracy", "decided", "precision", "abstain",
                                   "fallback", "text", "ran"]
    assert row.split()[:11] == ["folio_tiny", "sym", "ask", "4", "3", "75.0%", "100.0%", "75.0%", "0", "0", "0"]
    items = [line for line in run.stderr.splitlines() if line.startswith("[")]
    assert [line.split(" (")[0] for line in items] == ["[1/4] t1 sym ask: true", "[2/4] t2 sym ask: false",
                                                       "[3/4] t3 sym ask: uncertain", "[4/4] t4 sym ask: uncertain"]
    assert items[3].split(" · ")[0].endswith("(sym), gold true: wrong")
    assert "Traceback" not in run.stderr
    js = subprocess.run([*sym_exe, "bench", "logic", "--data", file, "--llm", "off", "--path", "ask", "--json",
                         "--offset", "1", "--limit", "2"], capture_output=True, text=True, timeout=120)
    *items, score = [json.loads(line) for line in js.stdout.splitlines()]     # one line per item, then the totals
    assert [(x["type"], x["index"], x["item"], x["answer"], x["by"], x["correct"]) for x in items] == [
        ("item", 2, "t2", "false", "sym", True), ("item", 3, "t3", "uncertain", "sym", True)]
    assert (score["type"], score["n"], score["correct"], score["programs_ran"], score["llm_calls"]) == \
        ("totals", 2, 2, 0, 0)
    assert (score["decided"], score["coverage"], score["precision"], score["abstained"]) == (2, 1.0, 1.0, 0)
    by_id = subprocess.run([*sym_exe, "bench", "logic", "--data", file, "--llm", "off", "--path", "ask", "--json",
                            "--ids", "t4,t1", "--quiet"], capture_output=True, text=True, timeout=120)
    assert [json.loads(line).get("item") for line in by_id.stdout.splitlines()] == ["t1", "t4", None]
    assert by_id.stderr.count("\n[") == 0 and not by_id.stderr.startswith("[")
    unknown = subprocess.run([*sym_exe, "bench", "logic", "--data", file, "--llm", "off", "--ids", "t9"],
                             capture_output=True, text=True, timeout=120)
    assert unknown.returncode == 2 and "no item with id 't9'" in unknown.stderr and "Traceback" not in unknown.stderr


def test_a_bad_file_is_one_line_and_exit_2(sym_exe, tmp_path):
    file = write(tmp_path, [{"id": "x", "context": CATS, "question": "Is Tom an animal?"}])
    run = subprocess.run([*sym_exe, "bench", "logic", "--data", file, "--llm", "off"], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2
    assert run.stderr.strip() == "sym: folio_tiny.json item 0: missing key 'options'"


def test_prove_with_no_model_answers_nothing_and_says_why(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    run_logic(write(tmp_path, [truth_item("t1", "Tom is an animal.", "A")]), path="prove", llm_mode="off",
              as_json=True, out=out, err=err)
    item, score = (json.loads(line) for line in out.getvalue().splitlines())
    assert (score["n"], score["correct"], score["failures"]) == (1, 0, {"no model": 1})
    assert (item["by"], item["reason"], item["calls"], item["seconds"] >= 0) == ("none", "no model", 0, True)


# -- the proof path against the scripted server ----------------------------------------------

CAT_PROGRAM = {"sorts": [{"name": "Thing", "type": "DeclareSort"}],
               "functions": [{"name": "cat", "domain": ["Thing"], "range": "BoolSort"},
                             {"name": "animal", "domain": ["Thing"], "range": "BoolSort"}],
               "constants": {"things": {"sort": "Thing", "members": ["tom"]}},
               "variables": [{"name": "x", "sort": "Thing"}],
               "knowledge_base": ["ForAll([x], Implies(cat(x), animal(x)))", "cat(tom)"],
               "verifications": [{"name": "claim", "constraint": "animal(tom)"}],
               "actions": ["verify_conditions"]}

SEATING = ("Three friends, Ann, Ben and Cal, sit in seats 1, 2 and 3, one to a seat. "
           "Ann does not sit in seat 1. Ben sits in a lower-numbered seat than Cal.")
SEATING_Q = "Which one of the following could be the seating, from seat 1 through seat 3?"
ORDERS = {"A": ("ann", "ben", "cal"), "B": ("ben", "ann", "cal"), "C": ("cal", "ann", "ben"),
          "D": ("ann", "cal", "ben"), "E": ("cal", "ben", "ann")}
SEATING_PROGRAM = {
    "sorts": [{"name": "Person", "type": "EnumSort", "values": ["ann", "ben", "cal"]}],
    "functions": [{"name": "seat", "domain": ["Person"], "range": "IntSort"}],
    "variables": [{"name": "p", "sort": "Person"}],
    "knowledge_base": [{"name": "seats 1-3", "assertion": "ForAll([p], And(seat(p) >= 1, seat(p) <= 3))"},
                       {"name": "one per seat", "assertion": "Distinct(seat(ann), seat(ben), seat(cal))"}],
    "rules": [{"name": "Ann does not sit in seat 1", "constraint": "seat(ann) != 1"},
              {"name": "Ben sits lower than Cal", "constraint": "seat(ben) < seat(cal)"}],
    "verifications": [{"name": x, "constraint": f"And(seat({a}) == 1, seat({b}) == 2, seat({c}) == 3)"}
                      for x, (a, b, c) in ORDERS.items()],
    "actions": ["verify_conditions"]}


def chats(server):
    return server.requests_to("/api/chat")


def run(file: str, server, **options) -> tuple[list[dict], str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_logic(file, llm_mode="on", model=MODEL, host=server.url, as_json=True, out=out, err=err, **options)
    assert code == 0, err.getvalue()
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    return [x for x in lines if x["type"] == "totals"], err.getvalue()


def test_a_checked_claim_answers_a_truth_item_beside_the_model_alone(ollama_server, tmp_path):
    ollama_server.reply(json.dumps(CAT_PROGRAM), when=lambda r: r.format is not None)
    ollama_server.reply("Tom is a cat, and cats are animals, but I am unsure.\nAnswer: C",
                        when=lambda r: r.format is None)
    file = write(tmp_path, [truth_item("t1", "Tom is an animal.", "B", ("A) Uncertain", "B) True", "C) False"))])
    (sym, alone), _ = run(file, ollama_server, path="prove", baseline="llm")
    # two readings (samples), which agree: decided (issue 53: one reading alone decides nothing)
    assert (sym["system"], sym["mode"], sym["correct"], sym["programs_ran"], sym["llm_calls"]) == ("sym", "prove", 1, 1, 2)
    assert sym["fallback"] == 0 and sym["failures"] == {} and sym["tokens"] > 0 and sym["decided"] == 1
    assert (alone["system"], alone["correct"], alone["llm_calls"], alone["programs_ran"]) == ("llm", 0, 1, 0)
    program_call, second, baseline_call = chats(ollama_server)
    assert second.options["seed"] != program_call.options["seed"]
    assert "Tom is a cat." in program_call.last_user and "Tom is an animal." in program_call.last_user
    assert "C) False" in baseline_call.last_user and "Answer with one of: A, B, C." in baseline_call.last_user


def test_a_multiple_choice_item_is_decided_by_a_program_per_option(ollama_server, tmp_path):
    ollama_server.reply(json.dumps(SEATING_PROGRAM), when=lambda r: r.format is not None)
    ollama_server.reply("Ben must sit first.\nAnswer: B", when=lambda r: r.format is None)
    options = [f"{x}) " + ", ".join(p.title() for p in names) for x, names in ORDERS.items()]
    file = write(tmp_path, [{"id": "s1", "context": SEATING, "question": SEATING_Q, "options": options,
                             "answer": "B"}], "lsat_tiny.json")
    (sym, alone), _ = run(file, ollama_server, path="prove", baseline="llm")
    assert (sym["correct"], sym["programs_ran"], sym["llm_calls"], sym["fallback"]) == (1, 1, 2, 0)
    assert (alone["correct"], alone["llm_calls"]) == (1, 1)
    program_call = chats(ollama_server)[0]
    assert "B) Ben, Ann, Cal" in program_call.last_user and "A) A)" not in program_call.last_user


def test_an_item_no_program_checks_is_counted_by_reason_and_answered_by_the_model_alone(ollama_server, tmp_path):
    broken = {**CAT_PROGRAM, "verifications": [{"name": "claim", "constraint": "animal(dan)"}]}   # dan: undeclared
    ollama_server.reply(json.dumps(broken), when=lambda r: r.format is not None)
    ollama_server.reply("Answer: B", when=lambda r: r.format is None)
    file = write(tmp_path, [truth_item("t1", "Tom is an animal.", "B", ("A) Uncertain", "B) True", "C) False")),
                            truth_item("t2", "Tom is an animal.", "B", ("A) Uncertain", "B) True", "C) False"))])
    [sym], _ = run(file, ollama_server, path="prove")
    assert (sym["n"], sym["correct"], sym["fallback"], sym["fallback_correct"], sym["programs_ran"]) == (2, 2, 2, 2, 0)
    [(reason, count)] = sym["failures"].items()
    assert count == 2 and "dan" not in reason           # the two items' errors group under one reason
    out, err = io.StringIO(), io.StringIO()
    run_logic(file, path="prove", llm_mode="on", model=MODEL, host=ollama_server.url, out=out, err=err)
    assert out.getvalue().splitlines()[1].split()[:6] == ["folio_tiny", "sym", "prove", "2", "2", "100.0%"]
    assert ("0 decided by sym (0 right, no precision: none decided), 2 abstained, 2 answered by the model alone (fallback, "
            "unverified: 2 right)") in err.getvalue()
    lines = [line for line in err.getvalue().splitlines() if line.startswith("[")]
    assert lines[0].startswith("[1/2] t1 sym prove: true (fallback: the model alone, unverified), gold true: right")
    assert lines[0].endswith("undefined symbol dan — declare it under constants, functions or variables")   # whole
    assert f"2 × {reason}" in err.getvalue()
    [sym], _ = run(file, ollama_server, path="prove", fallback=False, limit=1)
    assert (sym["n"], sym["correct"], sym["fallback"]) == (1, 0, 0)


def test_a_strategyqa_question_is_a_claim_with_no_context(ollama_server, tmp_path):
    program = {"sorts": [{"name": "City", "type": "DeclareSort"}],
               "functions": [{"name": "people", "domain": ["City"], "range": "IntSort"}],
               "constants": {"cities": {"sort": "City", "members": ["albany_ga", "albany_ny"]}},
               "knowledge_base": ["people(albany_ga) == 75000", "people(albany_ny) == 99000"],
               "verifications": [{"name": "claim", "constraint": "people(albany_ga) >= 100000"}],
               "actions": ["verify_conditions"]}
    ollama_server.reply(json.dumps(program), when=lambda r: r.format is not None)
    ollama_server.reply("It is smaller now.\nAnswer: yes", when=lambda r: r.format is None)
    file = write(tmp_path, [{"qid": "q1", "question": "Will Albany, Georgia reach a hundred thousand people first?",
                             "answer": False, "facts": ["GOLD FACT"], "decomposition": ["GOLD STEP"]}], "sqa.json")
    (sym, alone), _ = run(file, ollama_server, path="auto", baseline="llm")
    assert (sym["correct"], sym["programs_ran"], alone["correct"]) == (1, 1, 0)
    assert not any("GOLD" in json.dumps(c.messages) for c in chats(ollama_server))


# -- the chat path: one chat turn of the agent per item ---------------------------------------

def table(file: str, server, **options) -> tuple[list[str], str]:
    """The rows and notes `sym bench logic` prints (not --json)."""
    out, err = io.StringIO(), io.StringIO()
    assert run_logic(file, llm_mode="on", model=MODEL, host=server.url, out=out, err=err, **options) == 0
    return out.getvalue().splitlines(), err.getvalue()


def tool_results(n: int):
    """A chat step offered tools after exactly `n` tool results (the turn's step n+1)."""
    return lambda r: bool(r.body.get("tools")) and sum(1 for m in r.messages if m.get("role") == "tool") == n


def test_a_chat_turn_is_scored_from_the_verified_ask_not_the_models_words(ollama_server, tmp_path):
    ollama_server.reply(tool_calls=[{"name": "tell", "arguments": {"text": CATS}}], when=tool_results(0))
    ollama_server.reply(tool_calls=[{"name": "ask", "arguments": {"question": "Is Tom an animal?"}}],
                        when=tool_results(1))
    ollama_server.reply("I am not sure.\nAnswer: uncertain", when=tool_results(2))    # unverified, and wrong
    file = write(tmp_path, [truth_item("t1", "Tom is an animal.", "B", ("A) Uncertain", "B) True", "C) False"))])
    [sym], _ = run(file, ollama_server, path="chat")
    assert (sym["mode"], sym["n"], sym["correct"], sym["fallback"], sym["failures"]) == ("chat", 1, 1, 0, {})
    assert (sym["verified"], sym["from_text"], sym["tool_calls"], sym["model_steps"]) == (1, 0, 2, 3)
    assert sym["llm_calls"] == 3 and sym["tokens"] > 0            # the turn's own client, counted as the bench's
    first = chats(ollama_server)[0]
    assert first.last_user == (f"{CATS}\n\nIs it true that Tom is an animal? "
                               "Answer true, false or uncertain.")
    told = [m["content"] for m in chats(ollama_server)[-1].messages if m.get("role") == "tool"]
    assert told[-1].startswith("true")                              # /ask ran, and the memory held the context
    rows, notes = table(file, ollama_server, path="chat")
    assert rows[1].split()[:6] == ["folio_tiny", "sym", "chat", "1", "1", "100.0%"]
    assert "1 answered from a verified call, 0 from the model's text (unverified); 2 tool calls in 3 model steps" in notes


def test_a_chat_turn_answered_in_text_only_is_counted_unverified(ollama_server, tmp_path):
    ollama_server.reply("Tom is a cat and every cat is an animal.\nAnswer: true",
                        when=lambda r: bool(r.body.get("tools")) and "Tom is an animal" in r.last_user)
    ollama_server.reply("Ben must sit first.\nAnswer: B",
                        when=lambda r: bool(r.body.get("tools")) and "Ann does not sit" in r.last_user)
    options = [f"{x}) " + ", ".join(p.title() for p in names) for x, names in ORDERS.items()]
    file = write(tmp_path, [truth_item("t1", "Tom is an animal.", "A"),
                            {"id": "s1", "context": SEATING, "question": SEATING_Q, "options": options,
                             "answer": "B"}], "mixed.json")
    out, err = io.StringIO(), io.StringIO()
    assert run_logic(file, llm_mode="on", model=MODEL, host=ollama_server.url, as_json=True, out=out, err=err,
                     path="chat") == 0
    *items, sym = [json.loads(line) for line in out.getvalue().splitlines()]
    assert (sym["n"], sym["correct"], sym["fallback"]) == (2, 2, 0)
    assert (sym["verified"], sym["from_text"], sym["tool_calls"], sym["model_steps"], sym["llm_calls"]) == (0, 2, 0, 2, 2)
    # the model's words are not sym's decision: nothing decided, no precision, their own column (issue 53)
    assert (sym["decided"], sym["precision"], sym["abstained"], sym["text"], sym["text_correct"]) == (0, None, 2, 2, 2)
    assert [(x["by"], x["calls"], x["tokens"] > 0) for x in items] == [("text", 1, True), ("text", 1, True)]
    lines = [line for line in err.getvalue().splitlines() if line.startswith("[")]
    assert "(the model's text, unverified)" in lines[0] and re.search(r" · 1 call, [1-9]\d* tokens", lines[0])
    from sym.core.llm.calllog import CallLog

    logged = CallLog().tagged(sym["run"])     # what `sym logs --run RUN` lists: the turns' calls
    assert [c["session"] for c in logged] == [x["tag"] for x in items]
    seating = chats(ollama_server)[1].last_user
    assert seating.startswith(SEATING + "\n\n" + SEATING_Q)
    assert "\nB) Ben, Ann, Cal\n" in seating and seating.endswith("Answer with the letter.")
    _, notes = table(file, ollama_server, path="chat")
    assert "0 answered from a verified call, 2 from the model's text (unverified); 0 tool calls in 2 model steps" in notes


def test_a_chat_turns_prove_of_the_claim_decides_only_when_its_readings_agree(ollama_server, tmp_path):
    """A /prove of the item's claim, its two programs agreeing and resting on stated facts, is a
    verified result; the same turn whose programs assume what no premise states is the model's text."""
    tell = [{"name": "tell", "arguments": {"text": CATS}}]
    prove = [{"name": "prove", "arguments": {"question": "Is it true that Tom is an animal?"}}]
    ollama_server.reply(tool_calls=tell, when=tool_results(0))
    ollama_server.reply(tool_calls=prove, when=tool_results(1))
    ollama_server.reply("It is proved.\nAnswer: true", when=tool_results(2))
    ollama_server.reply(json.dumps(CAT_PROGRAM), when=lambda r: r.format is not None and not r.body.get("tools"))
    file = write(tmp_path, [truth_item("t1", "Tom is an animal.", "B", ("A) Uncertain", "B) True", "C) False"))])
    out, err = io.StringIO(), io.StringIO()
    assert run_logic(file, llm_mode="on", model=MODEL, host=ollama_server.url, as_json=True, out=out, err=err,
                     path="chat") == 0
    item, sym = [json.loads(line) for line in out.getvalue().splitlines()]
    assert (item["by"], item["correct"], sym["decided"], sym["verified"], sym["text"]) == ("sym", True, 1, 1, 0)
    programs = [c for c in chats(ollama_server) if c.format is not None and not c.body.get("tools")]
    assert len(programs) == 2                    # two readings of the claim, which agreed
    ollama_server.clear()
    assumed = {**CAT_PROGRAM, "knowledge_base": ["cat(tom)", "animal(tom)"]}     # "Tom is an animal" is the claim
    ollama_server.reply(tool_calls=prove, when=tool_results(0))
    ollama_server.reply("It is proved.\nAnswer: true", when=tool_results(1))
    ollama_server.reply(json.dumps(assumed), when=lambda r: r.format is not None and not r.body.get("tools"))
    lone = write(tmp_path, [{**truth_item("t2", "Tom is an animal.", "B", ("A) Uncertain", "B) True", "C) False")),
                             "context": "Tom is a cat."}], "folio_lone.json")
    out = io.StringIO()
    assert run_logic(lone, llm_mode="on", model=MODEL, host=ollama_server.url, as_json=True, out=out,
                     err=io.StringIO(), path="chat") == 0
    item, sym = [json.loads(line) for line in out.getvalue().splitlines()]
    assert (item["by"], sym["decided"], sym["text"]) == ("text", 0, 1)


PRONTO = ("Every wumpus is a jompus. Jompuses are not shy. Each jompus is a dumpus. Dumpuses are fruity. "
          "Numpuses are shy. Max is a wumpus.")


def test_two_option_true_false_items_are_read_by_the_grammar_with_no_model(tmp_path):
    """A ProntoQA-shaped suite (invented words; two options; the question framed before it is
    asked) is decided by the grammar and the engine alone: no call, and not the literal claims
    "True" and "False"."""
    asked = ["Based on the above information, is the following statement true or false? Max is not shy.",
             "Is the following statement true or false? Max is shy.", "True or false: Max is fruity."]
    items = [{"id": f"p{i}", "context": PRONTO, "question": q, "options": ["A) True", "B) False"], "answer": gold}
             for i, (q, gold) in enumerate(zip(asked, "ABA"))]
    out = io.StringIO()
    assert run_logic(write(tmp_path, items, "pronto.json"), llm_mode="off", as_json=True, out=out,
                     err=io.StringIO()) == 0
    *lines, score = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [(x["answer"], x["by"], x["correct"], x["calls"]) for x in lines] == [
        ("true", "sym", True, 0), ("false", "sym", True, 0), ("true", "sym", True, 0)]
    assert (score["decided"], score["precision"]) == (3, 1.0)
