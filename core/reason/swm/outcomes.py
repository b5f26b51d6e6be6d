"""What the SWM reasoner hands back: what each told sentence became (`Told`), a /tell that stored
nothing because a sentence failed (`TellIncomplete`), and an answer with its steps (`AskOutcome`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sym.core.errors import UserError
from sym.core.memory.working import Item


@dataclass
class Told:
    """What one sentence became."""

    sentence: str
    path: str                        # fast | llm | soft | state | none
    items: list[Item] = field(default_factory=list)
    removed: list[Item] = field(default_factory=list)
    duplicates: int = 0
    problem: str = ""
    kept: bool = True                # False: understood, but not stored because another sentence failed
    warning: str = ""                # read, but an operation did not apply ("the shoe is not in Box 1: nothing moved")
    vote: str = ""                   # read by several samples (llm.samples): what they said, how many
    drawn: int = 0                   # how many samples were drawn for that vote (0: not voted)
    read_as: str = ""                # the grammar's reading in canonical controlled English, where it says it otherwise
    rewrite: str = ""                # the model's rewrite in the controlled language (tell.model rewrite)

    @property
    def outcome(self) -> str:
        """stored | known (nothing new) | failed (nothing read) | held (read, not stored: another
        failed) | skipped (read, but its operation found nothing to act on: see `warning`)."""
        if self.problem:
            return "failed"
        if not self.kept:
            return "held"
        if self.items or self.removed:
            return "stored"
        return "skipped" if self.warning else "known"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"sentence": self.sentence, "path": self.path, "outcome": self.outcome,
                               "added": [it.to_dict() for it in self.items]}
        if self.removed:
            out["removed"] = [it.id for it in self.removed]
        if self.duplicates:
            out["duplicates"] = self.duplicates
        if self.problem:
            out["problem"] = self.problem
        if self.warning:
            out["warning"] = self.warning
        if self.vote:
            out["vote"] = self.vote
        if self.read_as:
            out["read_as"] = self.read_as
        if self.rewrite:
            out["rewrite"] = self.rewrite
        return out


@dataclass
class AskOutcome:
    question: str
    goal: str
    kind: str                        # truth | values | relation
    answer: str                      # true/false/unknown/inconsistent, the values, or the relation sentence
    verified: bool = True            # False: an LLM's guess, not derived
    steps: list[str] = field(default_factory=list)
    rounds: int = 0
    llm_calls: int = 0
    values: list[dict[str, Any]] = field(default_factory=list)
    mode: str = "hybrid"
    run: str = ""
    settle: str = ""                 # what memory lacks to decide it ("nothing in memory says p or ~p")
    derivations: list[tuple[str, list[str]]] = field(default_factory=list)   # inconsistent: p's and ~p's steps
    clash: list[dict[str, str]] = field(default_factory=list)   # inconsistent: the items (id, text, nl) behind it
    note: str = ""                   # e.g. no model answered the fallback

    def to_dict(self) -> dict[str, Any]:
        return {"question": self.question, "goal": self.goal, "kind": self.kind, "answer": self.answer,
                "verified": self.verified, "steps": self.steps, "rounds": self.rounds,
                "llm_calls": self.llm_calls, "mode": self.mode,
                **({"values": self.values} if self.values else {}),
                **({"settle": self.settle} if self.settle else {}),
                **({"derivations": {side: steps for side, steps in self.derivations}} if self.derivations else {}),
                **({"clash": self.clash} if self.clash else {}),
                **({"note": self.note} if self.note else {})}


class TellIncomplete(UserError):
    """Some sentence of a /tell could not be read, so nothing was stored. `told` says what
    each sentence would have become and why the others failed."""

    def __init__(self, message: str, told: list[Told], *, hint: str | None = None, exit_code: int = 1,
                 note: str = "") -> None:
        super().__init__(message, hint=hint)
        self.told = told
        self.exit_code = exit_code
        self.note = note             # one more line to show (what a model could have done)


def said_otherwise(sentence: str, paraphrase: str) -> str:
    """The paraphrase where it differs from the sentence but for case and spacing ("" if not)."""
    def norm(text: str) -> str:
        return " ".join(text.lower().split()).rstrip(".")
    return paraphrase if paraphrase and norm(paraphrase) != norm(sentence) else ""


def quoted(sentences: list[str], limit: int = 3, width: int = 80) -> str:
    """The first few sentences, each quoted and cut to `width`, and how many more there are."""

    def one(s: str) -> str:
        s = " ".join(s.split())
        return s if len(s) <= width else s[:width - 1] + "…"

    shown = ", ".join(f"'{one(s)}'" for s in sentences[:limit])
    return shown + (f" and {len(sentences) - limit} more" if len(sentences) > limit else "")
