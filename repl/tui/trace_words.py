"""The Trace pane's words: what a run, a step's kind and a model call's purpose are called on screen.

Reasoners name their trace events for programs (`ask.goal`, `explore.or`, a run `ask-4`, a model call
`tell.verify`); the pane shows words instead. A name not listed here is still shown as words (its
last dotted part, underscores as spaces), never as the dotted name.
"""

from __future__ import annotations

import re

# a step's kind → the word put before its label ("" when the label says what it is already)
STEP_WORDS = {
    "ask.goal": "question", "ask.step": "", "ask.fact": "fact", "ask.infer": "", "ask.rule": "rule",
    "ask.derived": "derived", "ask.violation": "contradiction", "ask.answer": "", "ask.fallback": "no proof",
    "ask.rejected": "rejected",
    "tell.llm": "", "tell.sentence": "sentence",
    "explore.and": "", "explore.or": "", "explore.leaf": "", "explore.rejected": "",
    "prove.question": "question", "prove.file": "file", "prove.attempt": "", "prove.core": "in the core",
    "prove.verification": "check", "steps.formula": "formula", "claim.question": "claim", "claim.attempt": "",
    "lsat.question": "question", "lsat.attempt": "",
    "agent.turn": "chat turn", "agent.call": "tool call",
    "check": "", "check.core": "", "why": "", "policy": "policy",
}

# a run's name (its id without the number) → what kind of work it was
RUN_WORDS = {
    "ask": "answering", "tell": "reading", "why": "proof", "check": "consistency check", "prove": "proof",
    "explore": "exploration", "agent": "chat turn", "steps": "program", "claim": "claim", "lsat": "puzzle",
    "infer": "inference", "math": "math",
}

# a model call's purpose → what the model was asked to do
PURPOSE_WORDS = {
    "ask.goal": "reading the question", "ask.rule": "judging rule instances",
    "ask.fallback": "answering without a proof", "ask.docs": "answering from documents",
    "tell": "reading sentences", "tell.repair": "repairing a reading", "tell.verify": "checking a reading",
    "tell.verify.repair": "checking a reading again", "prove": "writing the program",
    "agent": "chat", "agent.route": "sorting the turn's sentences", "agent.answer": "answering",
    "agent.math": "writing the math", "explore.or": "finding alternatives", "explore.and": "finding subgoals",
    "explore.oracle": "judging a leaf", "explore.constraint": "checking a constraint",
    "rank": "ranking", "rank.pair": "comparing a pair", "classify": "classifying", "compare": "comparing",
    "extract": "extracting facts", "policy.classify": "classifying for a policy",
    "policy.judge": "judging a policy", "policy.suggest": "suggesting a policy",
}


def _words(name: str) -> str:
    """A dotted name not listed above, as words: its last part, underscores and dashes as spaces."""
    return re.sub(r"[_\-]+", " ", name.rsplit(".", 1)[-1]).strip()


def step_word(kind: str) -> str:
    """The word before a step's label ("" for none)."""
    if kind in STEP_WORDS:
        return STEP_WORDS[kind]
    return _words(kind)


def run_word(run: str) -> str:
    """A run id (`ask-4`, `explore-2`, `bench-q7`) as the kind of work it was."""
    name = re.sub(r"-\d+$", "", run)
    return RUN_WORDS.get(name) or _words(name)


def purpose_words(purpose: str) -> str:
    """A model call's purpose (`ask.rule`, `bench.claim.program`) in words."""
    if purpose in PURPOSE_WORDS:
        return PURPOSE_WORDS[purpose]
    head, _, last = purpose.rpartition(".")
    if head in PURPOSE_WORDS:         # `tell.verify.x`, `explore.or.label`: the known part, then the rest
        return f"{PURPOSE_WORDS[head]} ({_words(last)})"
    return " ".join(_words(part) for part in purpose.split(".") if part)


def first_line(text: str, width: int = 70) -> str:
    """An input as a run's label: its first line, cut at `width` characters (the pager shows it all)."""
    lines = text.strip().splitlines() or [""]
    line = " ".join(lines[0].split())
    more = len(lines) > 1
    if len(line) > width:
        line, more = line[:width - 1].rstrip(), True
    return line + ("…" if more else "")
