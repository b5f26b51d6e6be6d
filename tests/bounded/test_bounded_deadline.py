"""Every query, inference and proof tree has a deadline (`query_timeout`): past it the command
stops with one line naming the setting, exit 4 in batch, memory unchanged — on the tuple, the
goal-directed and the dense (numpy) path, and over MCP; the time a reasoner waits on a model
between engine calls does not count. Programs here cannot finish in time; the tests assert the
stop, never a duration."""

from __future__ import annotations

import subprocess
import time

from tests.conftest import fails

# ?- reach(n0, n5000). takes tens of seconds on this chain: the recursion is not linear, so the
# question cannot be asked factored (as ?- reach(n0, Y).), which answers a linear one in milliseconds
CHAIN = 10_000
REACH = "reach(X, Y) :- e(X, Y).\nreach(X, Z) :- reach(X, Y), reach(Y, Z).\n"


def chain(path, start: int = 0, end: int = CHAIN, rules: str = REACH) -> None:
    path.write_text("\n".join(f"e(n{i}, n{i + 1})." for i in range(start, end)) + "\n" + rules)


def batch(sym_exe, script, *lines: str) -> subprocess.CompletedProcess:
    script.write_text("\n".join(lines) + "\n")
    return subprocess.run([*sym_exe, "--batch", str(script)], capture_output=True, text=True, timeout=300,
                          cwd=script.parent)


def stopped_lines(proc) -> list[str]:
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    return [line for line in proc.stderr.splitlines() if "query_timeout" in line]


def test_a_ground_query_on_a_long_chain_stops_at_the_deadline_with_exit_4(sym_exe, tmp_path):
    chain(tmp_path / "chain.pl")
    proc = batch(sym_exe, tmp_path / "s.sym", "/set query_timeout 0.2", "/consult chain.pl",
                 "?- reach(n0, n5000).", "?- e(n0, n1).", "/stats")
    assert proc.returncode == 4, proc.stderr
    (line,) = stopped_lines(proc)
    assert "line 3: query stopped: past 0.2 s (query_timeout)" in line and "reach/2" in line, line
    assert "/set query_timeout" in line
    assert "true." in proc.stdout           # the next command runs, on the memory as it was
    assert "10000" in proc.stdout.replace(",", "") and "2 rules" not in proc.stderr


def test_a_proof_tree_and_an_inference_stop_at_the_deadline_too(sym_exe, tmp_path):
    chain(tmp_path / "chain.pl")
    proc = batch(sym_exe, tmp_path / "s.sym", "/set query_timeout 0.2", "/consult chain.pl",
                 "/why reach(n0, n5000)", "/infer")
    assert proc.returncode == 4, proc.stderr
    why, infer = stopped_lines(proc)
    assert "line 3: query stopped" in why and "line 4: inference stopped" in infer, proc.stderr
    assert "/infer N" in infer


def test_a_dense_cross_product_stops_at_the_deadline_not_at_max_facts(sym_exe, tmp_path):
    facts = [f"{p}({i})." for p in "abc" for i in range(1000)]      # past DENSE_FROM: set-at-a-time
    (tmp_path / "cross.pl").write_text("\n".join(facts) + "\ntriple(X, Y, Z) :- a(X), b(Y), c(Z).\n")
    proc = batch(sym_exe, tmp_path / "s.sym", "/set query_timeout 0.2", "/set max_facts 100000000000",
                 "/consult cross.pl", "/infer", "?- triple(X, Y, Z).")   # 10^9 triples: never in time
    assert proc.returncode == 4, proc.stderr
    lines = stopped_lines(proc)
    assert len(lines) == 2 and "line 4: inference stopped" in lines[0] and "line 5: query stopped" in lines[1]


def test_no_deadline_with_zero_or_none_and_bad_values_are_one_line(sym):
    assert sym("/set query_timeout 0").ok and sym.shell.ctx.settings.query_timeout == 0
    assert sym("/set query_timeout none").ok and sym.shell.ctx.settings.query_timeout is None
    fails(sym("/set query_timeout -1"), "query_timeout")
    fails(sym("/set query_timeout soon"), "query_timeout")
    assert sym.shell.ctx.settings.query_timeout is None     # unchanged by the bad values
    assert sym.shell.ctx.settings.model_fields["query_timeout"].default == 30


def test_each_command_gets_its_own_deadline_so_a_model_computed_earlier_still_answers(sym):
    sym("/set query_timeout 1")
    sym("e(1, 2). e(2, 3). e(3, 4).")
    sym(REACH.replace("\n", " "))
    assert sym("/infer").ok                 # the whole model, computed under this command's deadline
    time.sleep(1.2)                          # that deadline has passed; the next command has its own
    answered = sym("?- reach(1, X).")
    assert answered.ok, answered
    assert sorted(b["X"] for b in answered.to_dict()["bindings"]) == [2, 3, 4]
    assert sym("/why reach(1, 4)").ok


def test_a_query_over_mcp_is_a_tool_error_naming_the_setting(sym_exe, tmp_path):
    from tests.mcp.test_mcp import Client, ok, refused

    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    (home / "config.toml").write_text("[settings]\nquery_timeout = 0.2\n")
    half = CHAIN // 2                           # a call stores a bounded number of clauses: two files
    chain(work / "chain1.pl", 0, half)
    chain(work / "chain2.pl", half, CHAIN, "")
    with Client(sym_exe, home, work, "--memory", "deadline") as server:
        ok(server.call("consult", file="chain1.pl"))
        ok(server.call("consult", file="chain2.pl"))
        refused(server.call("query", goal="?- reach(n0, n5000)."), "query stopped", "query_timeout")
        assert ok(server.call("query", goal="?- e(n0, n1)."))["truth"] == "true"
    assert "Traceback" not in server.stderr()



def test_a_slow_model_between_engine_calls_does_not_run_an_ask_out_of_time(llm_sym):
    from tests.verifier import verifier

    extraction = {"statements": [{"kind": "soft", "predicate": "other", "new_predicate": "happy", "args": ["X"],
                                  "negated": False, "if": [{"predicate": "other", "new_predicate": "kind",
                                                            "args": ["X"], "negated": False}]}]}
    llm_sym.server.reply(json=extraction, when="usually", times=1)
    verifier(llm_sym.server)
    assert llm_sym("/tell Kind people are usually happy.").ok
    assert llm_sym("/tell Anne is kind. If something is happy then it is glad.").ok
    llm_sym("/set query_timeout 0.3")
    llm_sym.server.reply(json={"applies": True, "facts": ["Happy(anne)"]}, when="anne")
    llm_sym.server.fail("slow", delay=1.5)      # the soft rule's implementation outlasts the deadline
    asked = llm_sym("/ask Anne is glad.")
    assert asked.ok, asked                       # the deadline counts the engine's time, not the model's
    assert asked.outcome.answer == "true" and asked.outcome.verified and asked.outcome.rounds == 1


def test_a_query_the_chat_agent_runs_stops_at_the_deadline_and_the_turn_goes_on(llm_sym, tmp_path):
    from tests.agent.test_agent import tool_results

    chain(tmp_path / "chain.pl")
    assert llm_sym(f"/consult {tmp_path / 'chain.pl'}").ok
    llm_sym("/set query_timeout 0.2")
    llm_sym.server.reply(tool_calls=[{"name": "query", "arguments": {"goal": "?- reach(n0, n5000)."}}],
                         when=tool_results(0))
    llm_sym.server.reply("It did not finish.", when=tool_results(1))
    turn = llm_sym("Does n0 reach n5000?")
    (call,) = turn.calls
    assert not call.ok and "query_timeout" in call.result.message and call.result.exit_code == 4
    sent = [m["content"] for m in llm_sym.server.chats[-1].messages if m.get("role") == "tool"]
    assert any("query_timeout" in text for text in sent)     # the model was told, in one line
