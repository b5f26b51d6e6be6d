"""/math: simplify, factor, expand, solve, diff, integrate and collect with SymPy, through
a restricted parser: a Lark grammar builds SymPy objects from a whitelist of names. No
attribute access, no dunders, no `sympify` of raw strings. SymPy is imported lazily, and
every job runs in a worker process (core.reason.math_worker) with time and memory limits.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import resource
import signal
import sys
import threading
import time
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from sym.core.errors import TimedOut, UserError
from sym.core.reason import child as child_process
from sym.core.stop import UNBOUNDED, Stop

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from lark import Lark, Token, Tree
    from sympy import Basic, Symbol  # SymPy ships no type information: to mypy these are Any

OPERATIONS = ("simplify", "factor", "expand", "solve", "diff", "integrate", "collect")
MAX_CHARS = 2000
MAX_EXPONENT = 1000          # 2**10**10 would hang the shell; symbolic exponents are fine
MAX_NESTING = 100

# name -> (sympy attribute, min args, max args)
FUNCTIONS = {
    "sin": ("sin", 1, 1), "cos": ("cos", 1, 1), "tan": ("tan", 1, 1), "cot": ("cot", 1, 1),
    "asin": ("asin", 1, 1), "acos": ("acos", 1, 1), "atan": ("atan", 1, 1), "atan2": ("atan2", 2, 2),
    "sinh": ("sinh", 1, 1), "cosh": ("cosh", 1, 1), "tanh": ("tanh", 1, 1),
    "exp": ("exp", 1, 1), "log": ("log", 1, 2), "ln": ("log", 1, 1), "sqrt": ("sqrt", 1, 1),
    "abs": ("Abs", 1, 1), "Abs": ("Abs", 1, 1), "sign": ("sign", 1, 1), "floor": ("floor", 1, 1),
    "ceiling": ("ceiling", 1, 1), "factorial": ("factorial", 1, 1), "binomial": ("binomial", 2, 2),
    "gamma": ("gamma", 1, 1), "Max": ("Max", 1, 16), "Min": ("Min", 1, 16), "re": ("re", 1, 1),
    "im": ("im", 1, 1), "conjugate": ("conjugate", 1, 1),
    "simplify": ("simplify", 1, 1), "expand": ("expand", 1, 1), "factor": ("factor", 1, 1),
    "collect": ("collect", 2, 2), "diff": ("diff", 2, 3), "integrate": ("integrate", 2, 4),
}
CONSTANTS = {"pi": "pi", "E": "E", "I": "I", "oo": "oo", "e": "E"}


@dataclass
class MathResult:
    operation: str
    input: str
    text: str
    latex: str

    def to_dict(self) -> dict[str, Any]:
        return {"operation": self.operation, "input": self.input, "result": self.text, "latex": self.latex}


@lru_cache(maxsize=1)
def _parser() -> Lark:
    from lark import Lark

    grammar = Path(__file__).with_name("math.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="earley", propagate_positions=True)


class _Build:
    def __init__(self) -> None:
        import sympy

        self.sp = sympy

    def node(self, tree: Tree[Token] | Token) -> Basic:
        from lark import Token

        sp = self.sp
        if isinstance(tree, Token):
            raise UserError(f"unexpected {tree!s}")
        kind, kids = tree.data, tree.children
        if kind == "number":
            return self.number(cast("Token", kids[0]))
        if kind == "name":
            token = cast("Token", kids[0])     # the grammar's NAME
            return self.name(str(token), token.column)
        if kind == "neg":
            return -self.node(kids[0])
        if kind == "binop":
            a, op, b = self.node(kids[0]), str(kids[1]), self.node(kids[2])
            return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a / b}[op]()
        if kind == "implicit_mul":
            return self.node(kids[0]) * self.node(kids[1])
        if kind == "pow":
            base, exp = self.node(kids[0]), self.node(kids[2])
            if exp.is_number and abs(exp) > MAX_EXPONENT:
                raise UserError(f"column {cast('Token', kids[1]).column}: exponent too large (at most {MAX_EXPONENT})")
            return base ** exp
        if kind == "equation":
            return sp.Eq(self.node(kids[0]), self.node(kids[1]))
        if kind == "call":
            token = cast("Token", kids[0])     # the grammar's NAME
            return self.call(str(token), [self.node(k) for k in kids[1:] if k is not None], token.column)
        raise UserError(f"unexpected {kind}")

    def number(self, token: Token) -> Basic:
        """A number, exactly: 2.5e-3 is 1/400 and 1e10 the integer 10000000000."""
        text = str(token)
        _, _, exponent = text.lower().partition("e")
        if exponent and abs(int(exponent)) > MAX_EXPONENT:
            raise UserError(f"column {token.column}: exponent too large in {text} (at most {MAX_EXPONENT})")
        value = Fraction(text)
        return self.sp.Rational(value.numerator, value.denominator)

    def name(self, name: str, col: int | None) -> Basic:
        if "__" in name:
            raise UserError(f"column {col}: names may not contain '__'")
        if name in CONSTANTS:
            return getattr(self.sp, CONSTANTS[name])
        if name in FUNCTIONS:
            raise UserError(f"column {col}: {name} is a function; call it as {name}(…)")
        return self.sp.Symbol(name)

    def call(self, name: str, args: list[Basic], col: int | None) -> Basic:
        if name not in FUNCTIONS:
            raise UserError(f"column {col}: unknown function {name!r}",
                            hint="functions: " + ", ".join(sorted(FUNCTIONS)))
        attr, lo, hi = FUNCTIONS[name]
        if not lo <= len(args) <= hi:
            raise UserError(f"column {col}: {name} takes {lo}" + (f" to {hi}" if hi != lo else "")
                            + f" argument(s), got {len(args)}")
        if name == "factorial" and args[0].is_number and abs(args[0]) > MAX_EXPONENT:
            raise UserError(f"column {col}: factorial argument too large (at most {MAX_EXPONENT})")
        if name == "integrate" and len(args) == 3:   # integrate(f, x, a) is not a thing; (f, x, a, b) is
            raise UserError(f"column {col}: integrate takes (f, x) or (f, x, a, b)")
        if name == "integrate" and len(args) == 4:
            return self.sp.integrate(args[0], (args[1], args[2], args[3]))
        if name in ("diff", "collect", "integrate") and not isinstance(args[1], self.sp.Symbol):
            raise UserError(f"column {col}: the second argument of {name} must be a variable")
        if name == "diff" and len(args) == 3 and args[2].is_number and abs(args[2]) > MAX_EXPONENT:
            raise UserError(f"column {col}: derivative order too large (at most {MAX_EXPONENT})")
        return getattr(self.sp, attr)(*args)


def _nesting(text: str) -> int:
    depth = deepest = 0
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        deepest = max(deepest, depth)
    return deepest


def parse_math(text: str) -> tuple[Basic, Tree[Token]]:
    """A SymPy expression (or Eq) from text, built from the whitelist; raises UserError."""
    from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput

    if len(text) > MAX_CHARS:
        raise UserError(f"expression longer than {MAX_CHARS} characters")
    if not text.strip():
        raise UserError("no expression given", hint="/math simplify EXPR")
    if _nesting(text) > MAX_NESTING:
        raise UserError(f"expression nests deeper than {MAX_NESTING}")
    try:
        tree = _parser().parse(text)
    except UnexpectedCharacters as err:
        raise UserError(f"column {err.column}: unexpected character {text[err.pos_in_stream or 0]!r}",
                        hint="arithmetic, ** or ^, and calls like sin(x) only") from None
    except UnexpectedEOF:
        raise UserError("the expression ends too early") from None
    except (UnexpectedInput, LarkError) as err:
        column = getattr(err, "column", None)
        raise UserError(f"column {column}: cannot parse here" if column else "cannot parse the expression") from None
    try:
        return _Build().node(tree), tree
    except RecursionError:
        raise UserError("expression nests too deeply") from None
    except (TypeError, ValueError, ZeroDivisionError, AttributeError, NotImplementedError) as err:
        raise UserError(f"cannot build the expression: {err}") from None


def split_wrt(text: str) -> tuple[str, str | None]:
    """'x**2 wrt x' -> ('x**2', 'x')."""
    head, sep, var = text.rpartition(" wrt ")
    if not sep:
        return text, None
    var = var.strip()
    if not var.isidentifier() or "__" in var:
        raise UserError(f"bad variable after wrt: {var!r}")
    return head, var


def compute(operation: str, text: str, *, stop: Stop = UNBOUNDED, memory_mb: int = 1024) -> MathResult:
    """Run one /math operation in the worker process: at most stop.math_timeout seconds and
    `memory_mb` MB, stopped at once when the stop's cancel is set. Raises UserError (TimedOut,
    Cancelled)."""
    timeout = stop.math_timeout
    with _LOCK:
        conn = _warm_worker(memory_mb, stop)
        conn.send_bytes(json.dumps({"operation": operation, "text": text}).encode())
        deadline = time.monotonic() + timeout
        while not conn.poll(_POLL_S):
            if stop.cancelled:
                _stop_worker()
                stop.check()
            if time.monotonic() > deadline:
                _stop_worker()
                raise TimedOut(f"/math stopped after {timeout:g} s (math_timeout)",
                               hint="/set math_timeout 60 allows longer")
        try:
            reply = json.loads(conn.recv_bytes())
        except (EOFError, OSError, ValueError):
            _stop_worker()
            raise _out_of_memory(memory_mb) from None
    if "error" in reply:
        if reply.get("memory"):
            _stop_worker()    # a MemoryError may leave the worker half-broken: start afresh
            raise _out_of_memory(memory_mb)
        raise UserError(reply["error"], hint=reply.get("hint"))
    return MathResult(**reply["result"])


MAX_OUTPUT = 100_000          # characters of a result worth showing


def compute_here(operation: str, text: str) -> MathResult:
    """Run one /math operation in this process (the worker's side); raises UserError."""
    import sympy as sp

    if operation not in OPERATIONS:
        raise UserError(f"unknown operation {operation!r}", hint="operations: " + ", ".join(OPERATIONS))
    body, wrt = split_wrt(text.strip())
    expr, tree = parse_math(body)
    var = sp.Symbol(wrt) if wrt else None
    free = sorted(expr.free_symbols, key=str) if hasattr(expr, "free_symbols") else []
    if var is None and operation in ("diff", "integrate", "solve", "collect"):
        if operation == "collect" or len(free) != 1:
            raise UserError(f"say which variable: /math {operation} EXPR wrt VAR")
        var = free[0]
    is_eq = isinstance(expr, sp.Equality)
    if is_eq and operation != "solve":
        raise UserError("an equation (=) goes with /math solve")
    try:
        if operation == "simplify":
            out = sp.simplify(expr)
        elif operation == "expand":
            out = sp.expand(expr)
        elif operation == "factor":
            collected = _collect_call(tree)
            if var is not None:
                out = sp.collect(sp.expand(expr), var, func=sp.factor)
            elif collected is not None:     # factor collect(E, v): factor each coefficient of v
                out = sp.collect(expr, collected, func=sp.factor)
            else:
                out = sp.factor(expr)
        elif operation == "collect":
            out = sp.collect(sp.expand(expr), var)
        elif operation == "diff":
            out = sp.diff(expr, var)
        elif operation == "integrate":
            out = sp.integrate(expr, var)
        elif expr in (sp.true, sp.false):   # an equation SymPy decided as it was built: x = x, 1 = 2
            out = []
        else:
            out = sp.solve(expr, var, dict=False)
    except (TypeError, ValueError, NotImplementedError, ZeroDivisionError, AttributeError) as err:
        raise UserError(f"SymPy cannot {operation} this: {err}") from None
    try:
        if operation == "solve" and not out:     # no root: none at all, or every value is one
            lhs, rhs = (expr.lhs, expr.rhs) if is_eq else (expr, 0)
            every = expr == sp.true or (expr != sp.false and sp.simplify(lhs - rhs) == 0)
            text_out = f"every {var} is a solution" if every else "no solution"
            latex = rf"{sp.latex(var)} \in \mathbb{{C}}" if every else r"\text{no solution}"
        elif operation == "solve":
            text_out = ", ".join(f"{var} = {sp.sstr(s)}" for s in out)
            latex = ", ".join(f"{sp.latex(var)} = {sp.latex(s)}" for s in out)
        else:
            text_out, latex = sp.sstr(out), sp.latex(out)
    except ValueError as err:   # int -> str past Python's limit on digits
        if "digits" not in str(err):
            raise UserError(f"SymPy cannot show this result: {err}") from None
        raise UserError(f"the result has more than {sys.get_int_max_str_digits():,} digits",
                        hint="ask for something smaller, e.g. factor instead of expand") from None
    longest = max(len(text_out), len(latex))
    if longest > MAX_OUTPUT:
        raise UserError(f"the result is {longest:,} characters long (more than {MAX_OUTPUT:,}); not shown",
                        hint="ask for something smaller, e.g. factor instead of expand")
    return MathResult(operation, text.strip(), text_out, latex)


def _collect_call(tree: Tree[Token]) -> Symbol | None:
    """The variable of a top-level collect(E, v) call, if that is what the input is."""
    import sympy as sp
    from lark import Tree

    if isinstance(tree, Tree) and tree.data == "call" and str(tree.children[0]) == "collect":
        arg = tree.children[2] if len(tree.children) > 2 else None
        if isinstance(arg, Tree) and arg.data == "name":
            return sp.Symbol(str(arg.children[0]))
    return None


# -- the worker process: SymPy may run away (expand (x+y)**999, binomial(10**999, …)), so it runs
# in a child that a cancel or a deadline kills. Requests and replies are JSON, never pickles.

_POLL_S = 0.02
_LOCK = threading.Lock()
_WORKER: list[Any] = []            # [process, connection, memory_mb] while one is warm


def _out_of_memory(memory_mb: int) -> UserError:
    return UserError(f"/math ran out of memory (math_memory = {memory_mb} MB)",
                     hint="/set math_memory 4096 allows more; or ask for something smaller")


def _warm_worker(memory_mb: int, stop: Stop) -> Connection:
    """The warm worker's connection, starting one (about a second the first time) if needed."""
    if _WORKER and (_WORKER[2] != memory_mb or not _WORKER[0].is_alive()):
        _stop_worker()
    if not _WORKER:
        mp = multiprocessing.get_context("forkserver")
        mp.set_forkserver_preload(["sym.core.reason.math", "sympy", "lark"])   # later forks start warm
        parent, child = mp.Pipe()
        proc = mp.Process(target=_serve, args=(child, memory_mb), daemon=True, name="sym-math")
        try:
            child_process.start(proc)
        except (EOFError, OSError):
            raise UserError("the /math worker could not start", hint="try again; is math_memory too small?") from None
        finally:
            child.close()
        _WORKER[:] = [proc, parent, memory_mb]
        while not parent.poll(_POLL_S):       # the child says "ready" once SymPy is imported
            if stop.cancelled:
                _stop_worker()
                stop.check()
            if not proc.is_alive():
                _stop_worker()
                raise UserError("the /math worker could not start", hint="is math_memory too small?")
        try:
            parent.recv_bytes()
        except (EOFError, OSError):
            _stop_worker()
            raise UserError("the /math worker could not start", hint="is math_memory too small?") from None
    conn: Connection = _WORKER[1]
    return conn


def _stop_worker() -> None:
    if not _WORKER:
        return
    proc, conn, _ = _WORKER
    _WORKER.clear()
    proc.kill()
    proc.join(2)
    conn.close()


def _serve(conn: Connection, memory_mb: int) -> None:
    """The worker's loop: limits itself, then answers {operation, text} requests until EOF."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl+C is the shell's; it stops us by kill
    null = os.open(os.devnull, os.O_WRONLY)          # a worker dying of its memory limit would print a
    os.dup2(null, 2)                                 # traceback on the user's terminal; the shell says
    os.close(null)                                   # one line instead
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = memory_mb * 2**20 if hard == resource.RLIM_INFINITY else min(memory_mb * 2**20, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    import sympy  # noqa: F401

    _parser()
    conn.send_bytes(b"ready")
    while True:
        try:
            request = json.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        try:
            result = compute_here(str(request["operation"]), str(request["text"]))
            reply: dict[str, object] = {"result": {"operation": result.operation, "input": result.input,
                                "text": result.text, "latex": result.latex}}
        except UserError as err:
            reply = {"error": err.message, "hint": err.hint}
        except MemoryError:
            reply = {"error": "memory", "memory": True}
        except RecursionError:
            reply = {"error": "the expression nests too deeply for SymPy"}
        except Exception as err:  # noqa: BLE001 - SymPy raises many kinds; the user gets one line
            reply = {"error": f"SymPy failed: {type(err).__name__}: {str(err)[:200]}"}
        conn.send_bytes(json.dumps(reply).encode())
