"""SWM accuracy per dataset (same as `sym bench swm`): python benchmarks/swm_eval.py --data DIR [options]."""

import sys

from repl.cli import app

if __name__ == "__main__":
    sys.exit(app(["bench", "swm", *sys.argv[1:]]))
