"""`sym bench logic --samples K` against the Ollama-protocol test server: per item, K programs
(one seed each), the vote over those Z3 accepts; a split abstains with the vote on the item's
line and the fallback answers it, labelled; the calls are tagged by run and item (sym logs)."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import time

from sym.repl.bench import run_logic
from tests.bench.test_bench_logic import CAT_PROGRAM, MODEL, truth_item, write

REFUTED = {**CAT_PROGRAM, "verifications": [{"name": "claim", "constraint": "Not(animal(tom))"}]}
BROKEN = {**CAT_PROGRAM, "verifications": [{"name": "claim", "constraint": "animal(dan)"}]}   # dan: undeclared
OPTIONS = ("A) Uncertain", "B) True", "C) False")


def scripted(server, by_seed: dict[int, dict]) -> None:
    for seed, program in by_seed.items():
        server.reply(json.dumps(program), when=lambda r, s=seed: r.format is not None and r.options.get("seed") == s)
    server.reply(json.dumps(BROKEN), when=lambda r: r.format is not None)          # repairs
    server.reply("Answer: C", when=lambda r: r.format is None and r.options.get("seed") is None)   # the fallback
    server.reply("Answer: B", when=lambda r: r.format is None and r.options.get("seed") == 34)     # the baseline


def bench(file: str, server, **options) -> tuple[list[dict], dict, str]:
    out, err = io.StringIO(), io.StringIO()
    assert run_logic(file, path="prove", llm_mode="on", model=MODEL, host=server.url, as_json=True, out=out,
                     err=err, **options) == 0, err.getvalue()
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    return [x for x in lines if x["type"] == "item"], [x for x in lines if x["type"] == "totals"][0], err.getvalue()


def test_samples_that_agree_decide_the_item(ollama_server, tmp_path):
    scripted(ollama_server, {7001: CAT_PROGRAM, 7002: REFUTED, 7003: CAT_PROGRAM})
    file = write(tmp_path, [truth_item("t1", "Tom is an animal.", "B", OPTIONS)])
    [item], score, err = bench(file, ollama_server, samples=3)
    assert (item["answer"], item["by"], item["correct"]) == ("true", "sym", True)
    assert item["vote"] == "proved 2, refuted 1 (3 of 3 programs accepted)" and item["calls"] == 3
    assert (score["decided"], score["precision"], score["abstained"], score["fallback"]) == (1, 1.0, 0, 0)
    assert "· vote: proved 2, refuted 1 (3 of 3 programs accepted)" in err


def test_a_split_abstains_with_the_vote_and_the_fallback_answers_labelled(ollama_server, tmp_path):
    scripted(ollama_server, {7001: CAT_PROGRAM, 7002: REFUTED})
    file = write(tmp_path, [truth_item("t1", "Tom is an animal.", "B", OPTIONS)])
    [item], score, err = bench(file, ollama_server, samples=2)
    assert (item["answer"], item["by"], item["correct"]) == ("false", "fallback", False)
    assert item["reason"].startswith("unknown (the model's programs disagree): proved 1, refuted 1")
    assert (score["decided"], score["abstained"], score["fallback"], score["correct"]) == (0, 1, 1, 0)
    assert score["precision"] is None          # none decided: no precision, not 0 %
    line = next(x for x in err.splitlines() if x.startswith("[1/1]"))
    assert "(fallback: the model alone, unverified)" in line and "vote: proved 1, refuted 1" in line
    [item], score, _ = bench(file, ollama_server, samples=2, fallback=False)
    assert (item["answer"], item["by"], score["abstained"], score["fallback"]) == (None, "none", 1, 0)


def test_no_program_that_runs_abstains_and_the_baseline_has_its_own_request(ollama_server, tmp_path):
    scripted(ollama_server, {})
    file = write(tmp_path, [truth_item("t1", "Tom is an animal.", "B", OPTIONS),
                            truth_item("t2", "Tom is an animal.", "B", OPTIONS)])
    items, score, _ = bench(file, ollama_server, samples=3, baseline="llm", ids=["t2"])
    sym, alone = items
    assert (sym["item"], sym["by"], sym["answer"]) == ("t2", "fallback", "false")
    assert sym["reason"].startswith("no program: ")
    assert (alone["system"], alone["by"], alone["answer"], alone["correct"]) == ("llm", "llm", "true", True)
    assert alone["calls"] == 1 and alone["cached"] == 0         # not the fallback's reply from the cache


def test_the_calls_carry_the_item_tag_and_sym_logs_filters_by_run_and_item(ollama_server, tmp_path, sym_exe, sym_home):
    scripted(ollama_server, {7001: CAT_PROGRAM, 7002: CAT_PROGRAM})
    file = write(tmp_path, [truth_item("t1", "Tom is an animal.", "B", OPTIONS),
                            truth_item("t2", "Tom is a cat.", "B", OPTIONS)])
    items, score, _ = bench(file, ollama_server, samples=2)
    assert items[1]["tag"] == f"{score['run']}/prove/t2"
    env = {**os.environ, "SYM_HOME": str(sym_home)}
    logs = subprocess.run([*sym_exe, "logs", "--run", score["run"], "--item", "t2", "--json"], capture_output=True,
                          text=True, env=env, timeout=60)
    rows = [json.loads(line) for line in logs.stdout.splitlines()]
    assert len(rows) == 2 and {r["session"] for r in rows} == {items[1]["tag"]}
    everything = subprocess.run([*sym_exe, "logs", "--run", score["run"], "--json"], capture_output=True, text=True,
                                env=env, timeout=60)
    assert len(everything.stdout.splitlines()) == 4


def test_ctrl_c_stops_the_bench_during_a_model_call(ollama_server, tmp_path, sym_exe, sym_home):
    ollama_server.fail("slow", delay=60, times=None, when=lambda r: r.format is not None)   # a program call: a minute
    file = write(tmp_path, [truth_item("t1", "Tom is an animal.", "B", OPTIONS)])
    env = {**os.environ, "SYM_HOME": str(sym_home)}
    proc = subprocess.Popen([*sym_exe, "bench", "logic", "--data", file, "--path", "prove", "--llm", "on",
                             "--model", MODEL, "--ollama-host", ollama_server.url], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    assert "calls tagged" in proc.stderr.readline()          # the run has started
    while not ollama_server.chats:                          # a model call is under way
        assert proc.poll() is None
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    code = proc.wait(timeout=20)                              # against a hang, not a speed bound: the call takes 60 s
    assert code == 130 and "interrupted" in proc.stderr.read()
