"""`sym mcp` starting: the warm-up that keeps a host's first call fast runs after initialize, on the
shell's thread between calls, in a throwaway shell: the workspace's memory and session log never
see it, and a call made while it runs is answered as it would be on a warm server.
"""

from __future__ import annotations

from sym.core.reason.swm.english import parse as english
from sym.repl.dispatcher import MemoryOptions
from sym.repl.mcp.server import NO_WARM, Served, warm_steps


def test_the_warm_up_loads_what_first_calls_need_and_leaves_the_workspace_untouched(monkeypatch, tmp_path, sym_home):
    monkeypatch.setenv(NO_WARM, "0")
    served = Served(MemoryOptions("warmed"), read_only=False, allow=[tmp_path])
    try:
        assert next(served._warming, None) is None          # off: nothing was queued
        for step in warm_steps(served.shell):
            served.pool.submit(step).result()
        assert english._parser.cache_info().currsize == 1       # the English reader's grammar is built
        assert served.shell.memory.items == {}
        name, result = served.pool.submit(served.shell.execute, "/listing", source="mcp").result()
        assert result.ok and result.to_dict()["items"] == []
    finally:
        served.close()
    logged = "".join(p.read_text() for p in sym_home.rglob("*.jsonl"))
    assert "Bob is big" not in logged and "factor" not in logged


def test_a_call_made_while_the_server_warms_up_is_answered(monkeypatch, tmp_path):
    monkeypatch.delenv(NO_WARM, raising=False)
    served = Served(MemoryOptions("warming"), read_only=False, allow=[tmp_path])
    try:
        told = served.pool.submit(served.shell.execute, "/fact big(ann).", source="mcp").result()[1]
        assert told.ok
        answered = served.pool.submit(served.shell.execute, "/query big(X)", source="mcp").result()[1]
        assert answered.ok and answered.to_dict()["bindings"] == [{"X": "ann"}]
    finally:
        served.close()
