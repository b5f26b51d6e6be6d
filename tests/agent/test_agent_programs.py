"""The agent's `prove` with a program as text: size-checked before anything is written under the
workspace's `agent/` folder, and no file left there for a program that was refused or whose proof failed."""

from __future__ import annotations

from sym.core.memory.workspace import workspace_dir
from tests.agent.test_agent import tool_results

PROGRAM = "(declare-const p Bool) (assert p) (check-sat-assuming (p))"


def test_a_program_from_the_model_is_size_checked_first_and_only_one_that_ran_stays(llm_sym):
    folder = workspace_dir(llm_sym.shell.ctx.memory.workspace) / "agent"
    assert llm_sym("/set max_file_mb 0.01").ok
    big = "; " + "x" * 20_000 + "\n" + PROGRAM                    # 0.02 MB
    llm_sym.server.reply(tool_calls=[{"name": "prove", "arguments": {"program": big}},
                                     {"name": "prove", "arguments": {"program": "(assert (> x"}}],
                         when=tool_results(0))
    llm_sym.server.reply(tool_calls=[{"name": "prove", "arguments": {"program": PROGRAM}}], when=tool_results(2))
    llm_sym.server.reply("Done.", when=tool_results(3))
    r = llm_sym("Prove p, three ways.")
    too_big, broken, proved = r.calls
    assert too_big.status == "bad call" and "0.01 MB" in too_big.result.message
    assert not broken.ok and proved.ok
    assert [p.suffix for p in folder.iterdir()] == [".smt2"]      # the one that ran; nothing else, no .tmp
