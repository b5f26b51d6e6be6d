"""`sym bench swm` on CLUTRR stories through the protocol server: --extract reads the story like
/tell does (sentences about named things a few at a time), and --baseline llm runs the model alone beside sym."""

from __future__ import annotations

import io
import json

from sym.repl.bench import run_swm
from tests.ollama_server import DEFAULT_MODELS
from tests.verifier import verifier

STORY = ("James took his son Francisco out on a hunting trip. Francisco's daughter wanted to come, "
         "but they thought Natasha was too young. How is Natasha related to James?")
# "his son Francisco" says who is whose son: sym reads it without the model. Who is whose daughter
# the words leave open: that is the question the model answers.
RULE = "If B is the son of A, and C is the daughter of B, then C is the granddaughter of A."


def totals(out) -> list[dict]:
    """The totals' lines of a --json run (each item's line comes before them)."""
    return [x for x in map(json.loads, out.getvalue().splitlines()) if x["type"] == "totals"]


def _data(tmp_path) -> str:
    folder = tmp_path / "data" / "clutrr"
    folder.mkdir(parents=True)
    (folder / "eval.json").write_text(json.dumps([{"query": STORY, "rule": [RULE],
                                                   "answer": "Natasha is the granddaughter of James."}]))
    return str(tmp_path / "data")


def test_bench_extracts_pair_by_pair_and_runs_the_model_alone_beside_sym(ollama_server, tmp_path):
    ollama_server.reply("Francisco is James's son and Natasha is his daughter.\n"
                        "Answer: Natasha is the granddaughter of James.", when=lambda r: "Question" in r.last_user
                        and "Questions:" not in r.last_user)
    ollama_server.reply(json={"1. Francisco is James's son, so James is Francisco's ___": "father"},
                        when=lambda r: ", so " in r.last_user)
    ollama_server.reply(json={"1. Francisco, Natasha, daughter": "Natasha is Francisco's daughter"}, when="Questions:")
    verifier(ollama_server)
    out, err = io.StringIO(), io.StringIO()
    code = run_swm(_data(tmp_path), modes=["hybrid"], datasets=["clutrr"], gold_facts=False, llm_mode="on",
                   model=DEFAULT_MODELS[0], host=ollama_server.url, as_json=True, limit=None, out=out, err=err,
                   baseline="llm")
    assert code == 0, err.getvalue()
    sym, alone = totals(out)
    assert (sym["system"], sym["n"], sym["correct"], sym["llm_calls"], sym["fallback"]) == ("sym", 1, 1, 5, 0)
    # step 1, the converse step, one check for each of the story's two sentences, and the second's turned round
    # (the first's reading is only what its words state, "his son Francisco": a control could change nothing)
    assert (alone["system"], alone["correct"], alone["llm_calls"]) == ("llm", 1, 1)
    assert sym["failures"] == {} and sym["failed_calls"] == 0 and "cached_calls" in sym
    step1 = [c for c in ollama_server.chats if "Questions:" in c.last_user and ", so " not in c.last_user]
    assert len(step1) == 1                                                     # the whole story in one call
    assert "Story: James took his son Francisco out on a hunting trip." in step1[0].last_user
    assert "If B" not in step1[0].last_user and "How is" not in step1[0].last_user   # rules and question are not story


def test_an_item_sym_leaves_undecided_falls_back_to_the_model_alone_and_is_counted_apart(ollama_server, tmp_path):
    ollama_server.reply("Answer: Natasha is the granddaughter of James.", when=lambda r: "Question" in r.last_user
                        and "Questions:" not in r.last_user)
    ollama_server.reply(json={"1. Francisco is James's son, so James is Francisco's ___": "father"},
                        when=lambda r: ", so " in r.last_user)
    ollama_server.reply(json={"1. Francisco, Natasha, daughter": "neither"}, when="Questions:")
    verifier(ollama_server)
    out, err = io.StringIO(), io.StringIO()
    run_swm(_data(tmp_path), modes=["hybrid"], datasets=["clutrr"], gold_facts=False, llm_mode="on",
            model=DEFAULT_MODELS[0], host=ollama_server.url, as_json=True, limit=None, out=out, err=err)
    [sym] = totals(out)
    # step 1, the converse step, the first sentence's check (no control: only what its words state), the model alone
    assert (sym["correct"], sym["fallback"], sym["fallback_correct"], sym["llm_calls"]) == (1, 1, 1, 4)
    out = io.StringIO()
    run_swm(_data(tmp_path / "again"), modes=["hybrid"], datasets=["clutrr"], gold_facts=False, llm_mode="on",
            model=DEFAULT_MODELS[0], host=ollama_server.url, as_json=True, limit=None, out=out, err=err,
            fallback=False)
    assert totals(out)[0]["correct"] == 0                                   # without it: undecided is wrong


def test_bench_text_table_counts_a_story_the_model_cannot_read_as_a_failure(ollama_server, tmp_path):
    folder = tmp_path / "data" / "clutrr"
    folder.mkdir(parents=True)
    (folder / "eval.json").write_text(json.dumps([{"query": STORY, "rule": [RULE],
                                                   "answer": "Natasha is the granddaughter of James."}]))
    ollama_server.reply("I am not sure.")                     # no JSON at all, every time
    out, err = io.StringIO(), io.StringIO()
    run_swm(str(tmp_path / "data"), modes=["hybrid"], datasets=["clutrr"], gold_facts=False, llm_mode="on",
            model=DEFAULT_MODELS[0], host=ollama_server.url, as_json=False, limit=None, out=out, err=err)
    header, row = out.getvalue().splitlines()
    assert header.split()[:4] == ["dataset", "system", "n", "correct"]
    assert row.split()[:5] == ["clutrr", "sym", "hybrid", "1", "0"]


def test_fallbacks_that_fail_are_counted_under_one_reason(ollama_server, tmp_path):
    folder = tmp_path / "data" / "clutrr"
    folder.mkdir(parents=True)
    item = {"query": STORY, "rule": [RULE], "answer": "Natasha is the granddaughter of James."}
    (folder / "eval.json").write_text(json.dumps([item, item]))
    ollama_server.fail("server", when=lambda r: "Question" in r.last_user and "Questions:" not in r.last_user,
                       times=None, message="the model is away")
    ollama_server.reply(json={"1. Francisco is James's son, so James is Francisco's ___": "father"},
                        when=lambda r: ", so " in r.last_user)
    ollama_server.reply(json={"1. Francisco, Natasha, daughter": "neither"}, when="Questions:")
    verifier(ollama_server)
    out, err = io.StringIO(), io.StringIO()
    run_swm(str(tmp_path / "data"), modes=["hybrid"], datasets=["clutrr"], gold_facts=False, llm_mode="on",
            model=DEFAULT_MODELS[0], host=ollama_server.url, as_json=True, limit=None, out=out, err=err)
    [sym] = totals(out)
    assert (sym["n"], sym["correct"], sym["fallback"]) == (2, 0, 0)
    [(reason, count)] = [(k, v) for k, v in sym["failures"].items() if k.startswith("fallback: ")]
    assert count == 2, sym["failures"]


def test_top_level_model_options_reach_the_bench(sym_exe, tmp_path):
    """`sym --ollama-host URL bench swm …` asks that server (the options before a subcommand are its
    defaults), as the README's examples write it."""
    import subprocess

    dead = "http://127.0.0.1:9"
    done = subprocess.run([*sym_exe, "--ollama-host", dead, "bench", "swm", "--data", _data(tmp_path),
                           "--llm", "on"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 3, done.stderr
    assert "127.0.0.1:9" in done.stderr
