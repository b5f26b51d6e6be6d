"""The input assembler: lines in, whole inputs out, by one set of rules for every front-end.

Batch scripts, piped input, the prompt-toolkit REPL and the TUI feed it one line at a time
and run what it hands back. It only decides where an input ends; it runs nothing.

The rules, in order, for a line that starts an input:
- a blank line, or one starting with `%` or `#`, is skipped (a comment);
- a line with an odd number of `\"\"\"` opens a block that runs to the next line holding `\"\"\"`;
  the block, quotes removed, is one input (`\"\"\"text\"\"\"` on one line is one input too);
- a line starting with `/` is a command, one line long, whatever quotes it holds;
- a line that does not start as a clause does (`name(`…, `:-`, `?-`: route.looks_like_clause)
  is English, a chat turn or a question, one line long whatever its punctuation ("Is Rex a dog");
- a line that ends a clause (its last content, outside quotes and `%` comments, is '.' or
  '?') is one input;
- any other clause goes on until a line ends it ("q(X) :-" / "  p(X).").
Inside a clause every line is kept (comments included: the parser reads them), except a
command line, which ends the clause there and is an input of its own. At the end of input
(`finish`) an open clause or block is an input as it stands: the dispatcher reads a clause
without its final '.' as if it had one.
"""

from __future__ import annotations

from dataclasses import dataclass

from sym.repl.route import looks_like_chat, looks_like_clause

BLOCK = '"""'


@dataclass(frozen=True)
class Input:
    line: int          # the line it starts on, counted from 1 over everything fed
    text: str


class Assembler:
    """Feed lines one at a time; `feed` returns the inputs they complete, `finish` the last one."""

    def __init__(self) -> None:
        self.lines = 0                 # lines fed so far
        self._pending: list[str] = []
        self._start = 0
        self._block = False

    @property
    def pending(self) -> bool:
        """Whether an input is open (a prompt shows "… " then)."""
        return bool(self._pending)

    @property
    def in_block(self) -> bool:
        return self._block

    @property
    def open_lines(self) -> int:
        """How many lines the open input has so far."""
        return len(self._pending)

    def reset(self) -> None:
        """Drop an open input (Ctrl+C at a prompt)."""
        self._pending, self._block = [], False

    def feed(self, line: str) -> list[Input]:
        self.lines += 1
        line = line.rstrip("\r\n").rstrip()
        stripped = line.strip()
        if self._block:
            self._pending.append(line)
            return [self._flush()] if BLOCK in stripped else []
        if self._pending:
            if stripped.startswith("/"):          # a command is never part of a clause
                return [self._flush(), Input(self.lines, stripped)]
            self._pending.append(line)     # (so _ends reads the whole input)
            return [self._flush()] if self._ends(stripped) else []
        if not stripped or stripped.startswith(("%", "#")):
            return []
        self._start = self.lines
        if stripped.count(BLOCK) % 2 == 1:
            self._pending, self._block = [line], True
            return []
        if stripped.startswith(BLOCK) and stripped.endswith(BLOCK) and len(stripped) >= 2 * len(BLOCK):
            text = stripped.replace(BLOCK, "").strip()
            return [Input(self.lines, text)] if text else []
        if stripped.startswith("/") or not looks_like_clause(stripped) or self._ends(stripped):
            return [Input(self.lines, stripped)]
        self._pending = [line]
        return []

    def finish(self) -> list[Input]:
        """The end of input: an open clause or block is an input as it stands."""
        return [self._flush()] if self._pending else []

    def _ends(self, stripped: str) -> bool:
        # imported late: the TUI's input line paints before the parser and the dispatcher load
        from sym.core.logic.parser import ends_clause

        if ends_clause(stripped):
            return True
        if stripped[-1:] not in (".", "?"):
            return False

        # English with an apostrophe or a lone quote ("Bob isn't big.") has no clause end by
        # the quote rules of logic; the whole input so far is what must read as English
        return looks_like_chat("\n".join(self._pending) if self._pending else stripped)

    def _flush(self) -> Input:
        text = "\n".join(self._pending)
        if self._block:
            text = text.replace(BLOCK, "")
        pending_start = self._start
        self._pending, self._block = [], False
        return Input(pending_start, text.strip())


def assemble(text: str) -> list[Input]:
    """A whole script's inputs."""
    asm = Assembler()
    out = [item for line in text.splitlines() for item in asm.feed(line)]
    return out + asm.finish()
