"""Run an SMT-LIB script as SMT-LIB's incremental semantics says (inside the worker process of
smt2_worker.py): commands in order through Z3's own command reader, so that scopes pop
declarations, `reset` starts over, `set-logic HORN` picks Z3's Horn engine and every check is
answered at its point; sym's verdicts (smt2_verdicts.py) are added at each check.

Only the steps smt2_steps.py allowed reach Z3. Every message goes to `send` as a small dict; the
parent stops the process when a check overruns (see smt2_worker.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from sym.core.reason.pot.interpret import UNKNOWN, interruptible
from sym.core.reason.pot.smt2_read import Smt2Error, flat, z3_hint, z3_message
from sym.core.reason.pot.smt2_steps import Step, steps
from sym.core.reason.pot.smt2_verdicts import MAX_CORES, Entry, claim, core, optimum, scene

_PLACE = re.compile(r'\(error "line (\d+) column (\d+): ')
_PLAIN_VALUE = re.compile(r"[A-Za-z0-9_.+-]+")
MAX_OUTPUT_CHARS = 20_000        # of one command's output
MAX_OUTPUTS = 500                # output commands shown per script
MAX_PLACED_ERRORS = 50           # errors placed exactly (each reads the declarations again); then at their command
Send = Callable[[dict[str, Any]], None]


class Runner:
    """One script's run: Z3's command reader, the scopes as sym keeps them, the checks so far."""

    def __init__(self, timeout_ms: int, send: Send, start: int = 0, strict: bool = False,
                 cores: bool = True) -> None:
        import z3

        z3.reset_params()                  # options a script set are the worker's, not the next script's
        self.z3 = z3
        self.timeout_ms, self.send, self.start = timeout_ms, send, start
        self.frames: list[list[Entry]] = [[]]
        self.checks = 0                    # checks met so far (their index)
        self.outputs = 0
        self.errors = 0
        self.strict = strict
        self.exit_on_error = False         # (set-option :error-behavior immediate-exit)
        self.stopped = False               # an error under immediate-exit: the script ends there, as in z3
        self.logic = ""
        self.cores = 0 if cores else MAX_CORES     # cores found so far (none more after one ran out of time)
        self.global_decls = False
        self.fixedpoint = False

    def command(self, text: str) -> str:
        """One SMT-LIB command through Z3's own reader (Z3_eval_smtlib2_string), its printed reply."""
        return str(self.z3.Z3_eval_smtlib2_string(self.zctx.ref(), text))

    def run(self, text: str) -> None:
        script = steps(text)
        self.preset(script)
        self.zctx = self.z3.Context()
        self.command(f"(set-option :timeout {self.timeout_ms})")
        with interruptible(self.zctx, None) as watchdog:
            self.watchdog = watchdog
            for step in script:
                self.step(step)
                if self.stopped:
                    break

    def step(self, step: Step) -> None:
        if step.kind == "check":
            self.check(step)
            return
        if step.kind == "output":
            self.output(step)
            return
        if step.kind == "reset":           # z3's (reset) also sets every option back (z3test pat1-3: smt.mbqi)
            self.z3.reset_params()
        if step.kind == "error-behavior":
            self.exit_on_error = len(step.tree) > 2 and str(step.tree[2]) == "immediate-exit"
            return
        try:
            out = self.command(step.text)
        except self.z3.Z3Exception as err:
            # z3 prints the error and goes on with the next command: the command did nothing
            self.rejected(step, err)
            return
        self.keep(step)
        if out.strip() and out.strip() != "success" and step.kind != "option":
            self.shown(step, out)

    def preset(self, script: list[Step]) -> None:
        """A module's options (fp.xform.bit_blast …) set before the first check, also as Z3's global
        parameters before the context is made: the API's command reader keeps a context's parameters
        from its making, so that (set-option :fp.…) never reaches the Horn engine there, where the z3
        binary uses it (z3test 3834: 0.02 s with bit-blasting, seconds without)."""
        for step in script:
            if step.kind in ("check", "reset"):
                return
            tree = step.tree
            if step.head != "set-option" or len(tree) != 3 or not isinstance(tree[2], str):
                continue
            key, value = str(tree[1]).lstrip(":"), tree[2]
            if "." in key and _PLAIN_VALUE.fullmatch(value):
                try:
                    self.z3.set_param(key, value)
                except self.z3.Z3Exception:    # the set-option itself prints Z3's error, as z3 does
                    pass

    def keep(self, step: Step) -> None:
        """The scopes as sym keeps them (what is in force at a check)."""
        depth = len(self.frames) - 1
        if step.kind == "push":
            self.frames.extend([] for _ in range(step.count))
        elif step.kind == "pop":
            del self.frames[len(self.frames) - step.count:]
        elif step.kind == "reset":
            self.frames, self.logic, self.global_decls, self.fixedpoint = [[]], "", False, False
            self.command(f"(set-option :timeout {self.timeout_ms})")
        elif step.kind == "reset-assertions":
            self.frames = [[e for e in self.frames[0] if e.kind == "decl"]]
        elif step.kind == "option":
            if step.head == "set-logic" and len(step.tree) > 1:
                self.logic = str(step.tree[1])
            elif step.head == "set-option" and str(step.tree[1]).lstrip(":") in ("global-decls", "global-declarations"):
                self.global_decls = len(step.tree) > 2 and step.tree[2] == "true"
        elif step.kind == "decl":
            self.fixedpoint = self.fixedpoint or step.head in ("declare-rel", "declare-var", "rule")
            (self.frames[0] if self.global_decls else self.frames[-1]).append(
                Entry("decl", step.text, line=step.line, depth=depth))
        elif step.kind == "assert":
            self.frames[-1].append(Entry("assert", step.text, step.label or f"line {step.line}", bool(step.label),
                                         step.line, depth, " ".join(step.text.split())))
        elif step.kind == "soft":
            tree = step.tree
            weight = str(tree[tree.index(":weight") + 1]) if ":weight" in tree[:-1] else "1"
            self.frames[-1].append(Entry("soft", f"(assert {flat(tree[1])})", step.label, line=step.line,
                                         depth=depth, weight=weight))
        elif step.kind == "objective":
            term = flat(step.tree[1])
            self.frames[-1].append(Entry("objective", f"(assert (= {term} {term}))", term, line=step.line,
                                         depth=depth, objective=step.head))

    def rejected(self, step: Step, err: Exception) -> None:
        """A command Z3 rejects: its error line, as z3 prints it; a strict script fails there instead."""
        if self.strict and step.kind != "option":
            message = z3_message(err)
            raise Smt2Error(f"line {step.line} column {step.column}: {message}", hint=z3_hint(message))
        self.shown(step, self.error_line(step, err), error=True)
        self.stopped = self.exit_on_error

    def shown(self, step: Step, out: str, error: bool = False) -> None:
        if self.checks < self.start:       # a rerun after a timeout: shown the first time already
            return
        self.outputs += 1
        if self.outputs > MAX_OUTPUTS:
            return
        text = out.rstrip("\n")
        if len(text) > MAX_OUTPUT_CHARS:
            text = text[:MAX_OUTPUT_CHARS] + f" … ({len(text) - MAX_OUTPUT_CHARS:,} more characters)"
        message: dict[str, Any] = {"event": "output", "text": text, "line": step.line, "command": step.head}
        if error:
            message["error"] = True
        self.send(message)

    def output(self, step: Step) -> None:
        """A command that only prints; Z3's error for it (no model after unsat …) is printed too, as Z3 does."""
        if self.checks < self.start:
            return
        try:
            out = self.command(step.text)
        except self.z3.Z3Exception as err:
            self.shown(step, self.error_line(step, err), error=True)
            self.stopped = self.exit_on_error
            return
        if out.strip():
            self.shown(step, out)

    def error_line(self, step: Step, err: Exception) -> str:
        """Z3's error for a command, as the z3 binary prints it: `(error "line N column M: …")`, where
        in the file Z3 found the fault. The API's reader counts lines on over every text a context
        was given, so the command is read again in a fresh context (the declarations in force, then
        the command at its place in the file) and their lines taken off; the command's own start
        where that does not fail alike."""
        message = z3_message(err)
        fallback = f'(error "line {step.line} column {step.column - 1}: {message}")'
        z3 = self.z3
        self.errors += 1
        if self.errors > MAX_PLACED_ERRORS:
            return fallback
        read = 0                           # lines the fresh context has read before the command
        try:
            scratch = z3.Context()
            for entry in (e for frame in self.frames for e in frame if e.kind == "decl"):
                z3.Z3_eval_smtlib2_string(scratch.ref(), entry.text)
                read += entry.text.count("\n")
            z3.Z3_eval_smtlib2_string(scratch.ref(), "\n" * step.line + " " * (step.column - 1) + step.text)
        except z3.Z3Exception as again:
            m = _PLACE.match(_raw_message(again))
            if m and z3_message(again) == message:
                line = int(m.group(1)) - read - 1
                if step.line <= line <= step.line + step.text.count("\n"):
                    return f'(error "line {line} column {m.group(2)}: {message}")'
        return fallback

    # -- checks --------------------------------------------------------------------------

    def arm(self) -> None:
        self.send({"event": "arm", "check": self.checks - 1})

    def check(self, step: Step) -> None:
        n = self.checks
        self.checks += 1
        if n < self.start:
            return
        kind, name = self.kind(step)
        report: dict[str, Any] = {"check": n, "line": step.line, "command": step.head, "kind": kind}
        if name:
            report["name"] = name
        self.send({**report, "event": "arm"})
        try:
            with self.watchdog.armed(self.timeout_ms):
                out = self.command(step.text)
        except self.z3.Z3Exception as err:         # z3 prints it and answers nothing here
            self.send({"event": "dropped", "check": n})
            self.rejected(step, err)
            return
        lines = out.strip().splitlines()
        answer = lines[0].strip() if lines and lines[0].strip() in ("sat", "unsat", "unknown") else UNKNOWN
        rest = "\n".join(lines[1:] if lines and lines[0].strip() == answer else lines)
        report["answer"] = answer
        if answer == UNKNOWN:
            reason = self._reason()
            report["reason"] = reason
            if self.watchdog.expired or any(w in reason for w in ("timeout", "canceled", "cancelled")):
                report["timeout"] = True
        self.send({**report, "event": "answer"})
        if rest.strip():
            self.shown(step, rest)
        if not report.get("timeout"):
            report.update(self.verdict(step, kind, name, answer))
        self.send({**report, "event": "check"})

    def kind(self, step: Step) -> tuple[str, str]:
        """What sort of check this is to sym (claim, optimization, consistency) and a claim's name."""
        entries = [e for frame in self.frames for e in frame]
        if self.logic == "HORN" or self.fixedpoint or step.head != "check-sat" and not step.literals:
            return "consistency", ""
        if step.literals:
            return "claim", step.label
        if any(e.kind in ("objective", "soft") for e in entries):
            return "optimization", ""
        scoped = [e for e in entries if e.kind == "assert" and e.depth > 0]
        if scoped:
            return "claim", " and ".join(e.label if e.named else e.source[len("(assert "):-1] for e in scoped)
        return "consistency", ""

    def _reason(self) -> str:
        try:
            out = self.command("(get-info :reason-unknown)")
        except self.z3.Z3Exception:
            return ""
        return out.split('"')[1] if out.count('"') >= 2 else ""

    def verdict(self, step: Step, kind: str, name: str, answer: str) -> dict[str, Any]:
        """sym's additions at this check: a claim's verdict, the core of a clash, the optimum."""
        out: dict[str, Any] = {}
        if self.logic == "HORN" or self.fixedpoint or (kind == "consistency" and answer != "unsat") or \
                (kind == "optimization" and answer != "sat"):
            return out
        try:
            sc = scene([e for frame in self.frames for e in frame], step.literals)
            if kind == "claim":
                result, clash = claim(sc, name, step.line, answer, self.timeout_ms, self.arm)
                out["verification"] = result.to_dict()
                if clash is not None:
                    out["core"] = clash
            elif kind == "optimization":
                out["optimization"] = optimum(sc, self.timeout_ms, self.arm).to_dict()
            elif self.cores < MAX_CORES:
                self.cores += 1
                clash = core(sc, self.timeout_ms, self.arm)
                if clash is not None:
                    out["core"] = clash
        except self.z3.Z3Exception as err:         # Z3's answer stands; sym could not add to it
            out["note"] = f"sym could not re-read what is in force here: {z3_message(err)[:200]}"
        return out


def _raw_message(err: Exception) -> str:
    value = getattr(err, "value", None)
    return (value.decode(errors="replace") if isinstance(value, bytes) else str(err)).strip()
