"""How soon a fresh `sym mcp` answers: seconds from the process's start to its initialize reply, and
to the reply of its first tool call (each tool given, one fresh server and workspace apiece).

    python benchmarks/mcp_first_call.py [--runs 3] [--tool query ...]

The target (issue 51) is a first call answered within 1 s of the server saying it is ready (its
initialize reply), and an initialize answered at once: the server warms up after it, behind the
calls. Prints one line per tool, medians over the runs: seconds to the initialize reply and to the
first call's reply (both from the start) and between them. Not part of the test run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CALLS = {
    "query": {"goal": "p(X)"},
    "fact": {"clauses": "p(a)."},
    "tell": {"text": "Bob is big."},
    "math": {"operation": "factor", "expr": "x**2 - 1"},
    "prove": {"program": "(declare-const p Bool) (assert p) (check-sat-assuming (p))"},
    "check": {},
}


def sym() -> list[str]:
    found = shutil.which("sym") or str(Path(sys.executable).with_name("sym"))
    return [found]


def once(tool: str) -> tuple[float, float]:
    """(seconds to the initialize reply, seconds to the first call's reply), both from the start."""
    home = tempfile.mkdtemp(prefix="sym-mcp-bench-")
    env = dict(os.environ, SYM_HOME=home, OLLAMA_HOST="http://127.0.0.1:9")
    start = time.perf_counter()
    proc = subprocess.Popen([*sym(), "mcp", "--memory", "bench"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env, cwd=home)

    def send(message: dict) -> None:
        proc.stdin.write((json.dumps(message) + "\n").encode())
        proc.stdin.flush()

    def reply(ident: int) -> dict:
        while True:
            line = proc.stdout.readline()
            if not line:
                raise SystemExit("the server closed stdout")
            got = json.loads(line)
            if got.get("id") == ident:
                return got

    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
        reply(1)
        ready = time.perf_counter() - start
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": tool, "arguments": CALLS[tool]}})
        reply(2)
        first = time.perf_counter() - start
    finally:
        proc.stdin.close()
        proc.wait(60)
        shutil.rmtree(home, ignore_errors=True)
    return ready, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tool", action="append", choices=sorted(CALLS))
    args = parser.parse_args()
    print(f"{'tool':<8} {'initialize s':>12} {'first call s':>13} {'call after initialize s':>24}")
    for tool in args.tool or list(CALLS):
        runs = [once(tool) for _ in range(args.runs)]
        ready = statistics.median(r for r, _ in runs)
        first = statistics.median(f for _, f in runs)
        after = statistics.median(f - r for r, f in runs)
        print(f"{tool:<8} {ready:12.2f} {first:13.2f} {after:24.2f}", flush=True)


if __name__ == "__main__":
    main()
