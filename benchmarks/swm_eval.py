"""SWM accuracy per dataset, sym beside the model alone:

    python benchmarks/swm_eval.py --data DIR [--dataset clutrr] [--extract] [--baseline llm] [--limit N]
                                  [--mode hybrid|paper|both] [--llm auto|on|off] [--model M] [--ollama-host URL] [--json]

Same as `sym bench swm`, plus `--baseline llm` (one chain-of-thought call per item, the answer
parsed the same way). Prints n, correct, accuracy, calls (cached and failed apart), tokens and
seconds per item; `--json` prints one object per dataset and system, failure tally included.
"""

import argparse
import sys

from sym.core.errors import UserError
from sym.repl.bench import run_swm


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="swm_eval.py")
    p.add_argument("--data", required=True)
    p.add_argument("--dataset", action="append")
    p.add_argument("--mode", default="hybrid", choices=["hybrid", "paper", "both"])
    p.add_argument("--extract", action="store_true", help="CLUTRR: facts from the story's sentences, not gold")
    p.add_argument("--baseline", choices=["none", "llm"], default="none")
    p.add_argument("--llm", default="auto", choices=["auto", "on", "off"])
    p.add_argument("--model")
    p.add_argument("--ollama-host")
    p.add_argument("--json", action="store_true")
    p.add_argument("--limit", type=int)
    a = p.parse_args(argv)
    modes = ["hybrid", "paper"] if a.mode == "both" else [a.mode]
    try:
        return run_swm(a.data, modes=modes, datasets=a.dataset, gold_facts=not a.extract, llm_mode=a.llm,
                       model=a.model, host=a.ollama_host, as_json=a.json, limit=a.limit, baseline=a.baseline)
    except UserError as err:
        print(f"swm_eval: {err}", file=sys.stderr)
        return 2 if err.exit_code == 1 else err.exit_code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
