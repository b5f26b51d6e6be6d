"""Checking an answer from documents: the facts read from the passages it cites, with memory,
either let the engine prove the question or they do not.

The sentences of the cited passages that share a word with the question are read as /tell reads
them (templated sentences by the grammar, the rest by the model; what cannot be read is left
out) into a copy of the working memory that lives only for the check, and the question is asked
there with no fallback. Only an answer the engine derives (true, false, or the values) marks the
documents' answer verified, with the steps and the facts read; anything else leaves it
unverified and says why. Nothing is stored: the copy is dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import TYPE_CHECKING, Any

from sym.core.errors import Cancelled, UserError
from sym.core.llm import LLMError
from sym.core.memory.retrieval import query_terms, stem
from sym.core.memory.working import WorkingMemory
from sym.core.reason.swm.english.sentences import split_sentences
from sym.core.run import Run

if TYPE_CHECKING:
    from sym.core.reason.docs_answer import Cited

CHECK_ITEMS = 20_000     # a memory larger than this is not copied for a check
CHECK_SENTENCES = 24     # sentences of the cited passages read at most
UNDECIDED = ("", "unknown", "inconsistent")
SOURCE = "docs:check"


@dataclass
class Check:
    """What checking gave: the engine's answer (empty: none), its steps, the facts read from the
    passages, the passages read, and why it is not verified."""

    answer: str = ""
    steps: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    read: list[str] = field(default_factory=list)      # the citations of the passages read
    why_not: str = ""
    llm_calls: int = 0

    @property
    def verified(self) -> bool:
        return bool(self.answer) and self.answer not in UNDECIDED

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"verified": self.verified, "facts": self.facts, "passages": self.read}
        if self.verified:
            out.update(answer=self.answer, steps=self.steps)
        else:
            out["why_not"] = self.why_not
        return out


def sentences_about(question: str, passages: Sequence[Cited], limit: int = CHECK_SENTENCES) -> list[str]:
    """The sentences of PASSAGES that share a (stemmed) content word with QUESTION, in order."""
    wanted = {stem(t) for t in query_terms(question)}
    out: list[str] = []
    for p in passages:
        body = "\n".join(line for line in p.text.splitlines() if not line.lstrip().startswith("#"))   # titles are not statements
        for sentence in split_sentences(body):
            if {stem(t) for t in query_terms(sentence)} & wanted and sentence not in out:
                out.append(sentence)
    return out[:limit]


def scratch_copy(memory: WorkingMemory) -> WorkingMemory:
    """A working memory with MEMORY's items and templates that lives in the process only."""
    copy = WorkingMemory(memory.workspace)
    items = sorted(memory.items.values(), key=lambda it: it.nl)
    for nl, group in groupby(items, key=lambda it: it.nl):
        copy.add([(it.clause, it.source) for it in group], nl=nl, merge="off")
    templates = {k: p.template for k, p in memory.schema.predicates.items() if p.template}
    if templates:
        copy.set_templates(templates)
    return copy


def check(question: str, passages: Sequence[Cited], memory: WorkingMemory, run: Run) -> Check:
    """Read the sentences of PASSAGES about QUESTION into a copy of MEMORY and ask it there (see
    the module's docstring). Cancelled stops it; any other failure is an unverified Check."""
    from sym.core.reason.swm.reasoner import SWM

    done = Check(read=[p.cite for p in passages])
    said = sentences_about(question, passages)
    if not said:
        done.why_not = "no sentence of the cited passages is about the question"
        return done
    if len(memory.items) > CHECK_ITEMS:
        done.why_not = f"memory holds more than {CHECK_ITEMS:,} items: not copied for a check"
        return done
    checking = Run(run.settings, f"{run.id}-check", emit=run.emit, cancel=run.cancel, hints=run.hints,
                   source=run.source, client=(lambda _run: run.llm) if run.has_model else None)
    swm = SWM(scratch_copy(memory), checking, merge="off")
    try:
        told = swm.tell(said, source=SOURCE, partial=True)
        done.facts = [it.text for t in told for it in t.items]
        if not done.facts:
            done.why_not = "no fact could be read from the cited passages"
            return done
        out = swm.ask(question, fallback=False, open_world=True)
    except Cancelled:
        raise
    except UserError as err:
        if isinstance(err, LLMError) and err.reason == "cancelled":
            raise
        done.why_not = f"the check could not run: {err.message}"
        return done
    finally:
        done.llm_calls = swm.llm_calls
    if out.verified and out.answer not in UNDECIDED:
        done.answer, done.steps = out.answer, list(out.steps)
    else:
        done.why_not = (f"the facts read from the passages do not settle it ({out.answer or 'no answer'}"
                        + (f": {out.settle})" if out.settle else ")"))
    return done
