"""`sym bench swm` item by item, as `sym bench logic` runs: a line per item on stderr as it
finishes, --json a line per item then the totals, --offset/--ids beside --limit, decided by sym
/ precision / abstained; and --samples K against the Ollama-protocol test server: a CLUTRR
story read K times (one seed each), a fact kept when most accepted readings state it, a tie
leaving its sentence unread and the item to the fallback, labelled."""

from __future__ import annotations

import io
import json
import os
import subprocess

from sym.repl.bench import run_swm
from tests.bench.test_swm_bench import RULE, STORY
from tests.ollama_server import DEFAULT_MODELS
from tests.verifier import verifier

ANSWER = "Natasha is the granddaughter of James."
OTHER = ("Sam took his son Tom fishing. Tom's daughter Ann stayed home, Ann was too young. "
         "How is Ann related to Sam?")


def data(tmp_path, records: list[dict]) -> str:
    folder = tmp_path / "data" / "clutrr" / "rule_shuffle"
    folder.mkdir(parents=True)
    (folder / "eval.json").write_text(json.dumps(records))
    return str(tmp_path / "data")


def gold_item(story: str, answer: str, edges: list[list[str]]) -> dict:
    return {"query": story, "rule": [RULE], "answer": answer, "grounded_variables": edges}


TWO = [gold_item(STORY, ANSWER, [["James", "son", "Francisco"], ["Francisco", "daughter", "Natasha"]]),
       gold_item(OTHER, "Ann is the granddaughter of Sam.", [["Sam", "son", "Tom"], ["Tom", "daughter", "Ann"]])]


def bench(folder: str, **options) -> tuple[list[dict], list[dict], str]:
    out, err = io.StringIO(), io.StringIO()
    options = {"modes": ["hybrid"], "datasets": ["clutrr"], "gold_facts": True, "llm_mode": "off", "model": None,
               "host": None, "as_json": True, "limit": None, **options}
    assert run_swm(folder, out=out, err=err, **options) == 0, err.getvalue()
    lines = [json.loads(line) for line in out.getvalue().splitlines()] if options["as_json"] else []
    return [x for x in lines if x["type"] == "item"], [x for x in lines if x["type"] == "totals"], err.getvalue()


def test_each_item_is_told_as_it_finishes_then_the_totals(tmp_path):
    items, [totals], err = bench(data(tmp_path, TWO))
    assert [(i["index"], i["total"], i["item"], i["by"], i["correct"]) for i in items] == [
        (1, 2, "rule_shuffle/eval.json#0", "sym", True), (2, 2, "rule_shuffle/eval.json#1", "sym", True)]
    assert items[0]["answer"] == ANSWER and items[0]["dataset"] == "clutrr"
    assert (totals["n"], totals["correct"], totals["decided"], totals["precision"], totals["abstained"]) == \
        (2, 2, 2, 1.0, 0)
    lines = [x for x in err.splitlines() if x.startswith("clutrr [")]
    assert lines[0].startswith(f"clutrr [1/2] rule_shuffle/eval.json#0 sym hybrid: {ANSWER} (sym), gold {ANSWER}: right")
    assert len(lines) == 2


def test_offset_ids_and_limit_pick_the_items(tmp_path):
    folder = data(tmp_path, TWO)
    items, _, _ = bench(folder, offset=1)
    assert [(i["index"], i["item"]) for i in items] == [(2, "rule_shuffle/eval.json#1")]
    items, _, _ = bench(folder, ids=["rule_shuffle/eval.json#1"])
    assert [(i["index"], i["total"], i["item"]) for i in items] == [(1, 1, "rule_shuffle/eval.json#1")]
    items, [totals], _ = bench(folder, limit=1)
    assert [i["item"] for i in items] == ["rule_shuffle/eval.json#0"] and totals["n"] == 1
    items, _, _ = bench(folder, datasets=["clutrr/rule_shuffle"])        # one setting's folder
    assert [i["item"] for i in items] == ["eval.json#0", "eval.json#1"]


def test_the_table_has_decided_precision_and_abstained_and_bad_picks_are_one_line(tmp_path, sym_exe, sym_home):
    folder = data(tmp_path, TWO)
    env = {**os.environ, "SYM_HOME": str(sym_home)}
    done = subprocess.run([*sym_exe, "bench", "swm", "--data", folder, "--dataset", "clutrr", "--llm", "off",
                           "--offset", "1", "--quiet"], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    header, row = done.stdout.splitlines()
    assert header.split()[:8] == ["dataset", "system", "n", "correct", "accuracy", "decided", "precision", "abstain"]
    assert row.split()[:8] == ["clutrr", "sym", "hybrid", "1", "1", "100.0%", "100.0%", "100.0%"]
    assert "[2/2]" not in done.stderr                                   # --quiet: no line per item
    for bad in (["--ids", "nope"], ["--offset", "9"]):
        done = subprocess.run([*sym_exe, "bench", "swm", "--data", folder, "--llm", "off", *bad],
                              capture_output=True, text=True, env=env, timeout=120)
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "Traceback" not in done.stderr


# -- --samples K: the story read K times, its facts voted on --------------------------------

def scripted(server, step1: dict[int, str], *, stamp: bool = False, wrong: tuple[str, ...] = ()) -> None:
    """Sample n (seed 7000 + n) answers step 1 ("which way round") with `step1[n]`; the converse
    step agrees with every sample, and the checks with every reading (but its reversal, unless
    `stamp`: then they agree with anything, as the reference 1.5B model's did); the model alone
    answers right."""
    server.reply(f"Answer: {ANSWER}", when=lambda r: "Question" in r.last_user and "Questions:" not in r.last_user)
    server.reply(json={"1. Francisco is James's son, so James is Francisco's ___": "father"},
                 when=lambda r: ", so " in r.last_user)
    for seed, said in step1.items():
        server.reply(json={"1. Francisco, Natasha, daughter": said},
                     when=lambda r, s=seed: "Questions:" in r.last_user and r.options.get("seed") == s)
    verifier(server, controls=not stamp, wrong=wrong)


def story(server, tmp_path, **options) -> tuple[dict, dict, str]:
    [item], [totals], err = bench(data(tmp_path, [{"query": STORY, "rule": [RULE], "answer": ANSWER}]),
                                  gold_facts=False, llm_mode="on", model=DEFAULT_MODELS[0], host=server.url, **options)
    return item, totals, err


def test_samples_that_mostly_agree_decide_the_story(ollama_server, tmp_path):
    right, wrong = "Natasha is Francisco's daughter", "Francisco is Natasha's daughter"
    scripted(ollama_server, {7001: right, 7002: wrong, 7003: right}, wrong=("Francisco is the daughter of Natasha",))
    item, totals, err = story(ollama_server, tmp_path, samples=3)
    assert (item["answer"], item["by"], item["correct"]) == (ANSWER, "sym", True)
    assert item["vote"] == "3 readings: 2 of 2 sentences kept by the vote, 0 split, 0 unread"   # 1 kept, 1 refused, a third
    step1 = [r for r in ollama_server.chats if "Questions:" in r.last_user and ", so " not in r.last_user]
    assert sorted(r.options["seed"] for r in step1) == [7001, 7002, 7003]
    assert all(r.options["temperature"] == 0.7 for r in step1)
    assert (totals["decided"], totals["precision"]) == (1, 1.0)
    assert "vote: 3 readings: 2 of 2 sentences kept by the vote" in err


def test_samples_that_agree_at_once_spare_the_rest(ollama_server, tmp_path):
    right = "Natasha is Francisco's daughter"
    scripted(ollama_server, {7001: right, 7002: right, 7003: "Francisco is Natasha's daughter"})
    item, totals, _ = story(ollama_server, tmp_path, samples=3)
    assert (item["answer"], item["by"]) == (ANSWER, "sym")
    assert item["vote"] == ("2 readings (1 more not drawn, the vote was settled): 2 of 2 sentences kept by the vote, "
                            "0 split, 0 unread")
    step1 = [r for r in ollama_server.chats if "Questions:" in r.last_user and ", so " not in r.last_user]
    assert sorted(r.options["seed"] for r in step1) == [7001, 7002]


def test_a_check_that_agrees_with_anything_keeps_only_what_the_words_state(ollama_server, tmp_path):
    """"his son Francisco" is sym's own reading and stands; "Natasha is Francisco's daughter" is
    the model's choice, and a check that also agrees with its reversal cannot confirm it."""
    right = "Natasha is Francisco's daughter"
    scripted(ollama_server, {7001: right, 7002: right, 7003: right}, stamp=True)
    item, totals, err = story(ollama_server, tmp_path, samples=3)
    assert (item["by"], item["answer"]) == ("fallback", ANSWER)
    assert "the check also agreed with the reversed reading 'Francisco is the daughter of Natasha.'" \
        in item["reason"]
    assert item["vote"] == "3 readings: 1 of 2 sentences kept by the vote, 0 split, 1 unread"
    assert (totals["decided"], totals["abstained"], totals["fallback"]) == (0, 1, 1)
    assert "(fallback: the model alone, unverified)" in err
    item, totals, _ = story(ollama_server, tmp_path / "again", samples=2, fallback=False)
    assert (item["by"], item["answer"], totals["abstained"], totals["correct"]) == ("none", None, 1, 0)
