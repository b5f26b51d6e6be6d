"""Several readings of the sentences the grammar cannot read, and a vote over them (settings
llm.samples > 1: `/tell` through the model, a CLUTRR story in `sym bench swm`).

The whole reading (extraction.py: pairs and their converses, restatements, statement menus, the
independent yes/no check) is sampled K times, its calls drawn together (lockstep.py). For each
sentence, the samples whose reading the grammar and the check accepted vote: a clause is kept
when more than half of them state it, compared after sym's own naming (the predicate mapped
onto a known one, the variables renamed in order), never as raw text. A sentence no sample
read, or whose clauses none reached a majority (a tie included), is left unread with a problem
that says so with the counts: /tell stores nothing (or, with --partial, the rest), exactly as
for a sentence the model could not read. Nothing here writes memory.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sym.core.logic.terms import Atom, Compare, Naf, Rule, Var, clause_text
from sym.core.reason.sampling import needed
from sym.core.reason.swm import extraction
from sym.core.reason.swm.extraction import Reading
from sym.core.reason.swm.lockstep import Chat, SampleClient, draw
from sym.core.reason.swm.replies import Tally

if TYPE_CHECKING:
    from sym.core.memory.schema import Schema

Clause = tuple[str, Atom | Rule]
DISAGREE = "the model's readings disagree"


def extract_voted(llm: Chat, sentences: list[str], schema: Schema, *, samples: int, temperature: float,
                  canonical: Callable[[Atom | Rule], Atom | Rule], extra: dict[str, set[int]] | None = None,
                  context: list[str] | None = None, tally: Tally) -> list[Reading]:
    """`samples` readings of `sentences` (extraction.extract each), and per sentence the clauses
    a majority of the accepted readings state (`canonical` names them as memory would)."""

    def read(client: SampleClient) -> tuple[list[Reading], Tally]:
        own = Tally()
        return extraction.extract(client, sentences, schema, extra=extra, context=context, tally=own), own

    drawn = draw(llm, samples, read, temperature=temperature)
    for _readings, own in drawn:
        tally.calls += own.calls
        tally.repairs += own.repairs
    readings = [[Reading(r.sentence, [(kind, canonical(c)) for kind, c in r.clauses], r.problem) for r in rs]
                for rs, _own in drawn]
    return [vote(sentence, [rs[at] for rs in readings]) for at, sentence in enumerate(sentences)]


def vote(sentence: str, readings: list[Reading]) -> Reading:
    """One sentence's reading from its samples' (`readings`, one each): the clauses more than half
    of the accepted ones state; none → the reading's problem says why, with the counts."""
    k = len(readings)
    accepted = [r for r in readings if r.clauses]
    if not accepted:
        last = next((r.problem for r in reversed(readings) if r.problem), "no reading")
        return Reading(sentence, [], f"no sample's reading was accepted (0 of {k}): {last}")
    counts: Counter[str] = Counter()
    first: dict[str, Clause] = {}
    for reading in accepted:
        keys = {key(c): c for c in reading.clauses}
        for k_, clause in keys.items():
            counts[k_] += 1
            first.setdefault(k_, clause)
    need = needed(len(accepted))
    shown = f"{', '.join(f'{_text(first[c])} {n}' for c, n in counts.most_common())} " \
            f"({len(accepted)} of {k} samples read it)"
    kept = [first[c] for c in first if counts[c] >= need]
    if not kept:
        return Reading(sentence, [], f"{DISAGREE}: {shown}; a clause needs {need}", vote=shown)
    return Reading(sentence, kept, "", vote=shown)


def key(clause: Clause) -> str:
    """A clause as the vote compares it: its kind and its text with variables renamed in order."""
    kind, c = clause
    return f"{kind}:{clause_text(standard(c))}"


def _text(clause: Clause) -> str:
    kind, c = clause
    text = clause_text(c).removesuffix(".")
    return f"{text} (soft)" if kind == "soft" else text


def standard(clause: Atom | Rule) -> Atom | Rule:
    """The clause with its variables renamed V1, V2, … in the order they first appear, so two
    readings that differ only in variable names compare equal."""
    names: dict[str, Var] = {}

    def term(t: Any) -> Any:
        if isinstance(t, Var):
            return names.setdefault(t.name, Var(f"V{len(names) + 1}"))
        return t

    def atom(a: Atom) -> Atom:
        return Atom(a.pred, tuple(term(t) for t in a.args), a.neg)

    def literal(lit: Any) -> Any:
        if isinstance(lit, Atom):
            return atom(lit)
        if isinstance(lit, Naf):
            return Naf(atom(lit.atom))
        if isinstance(lit, Compare):
            return Compare(lit.op, term(lit.left), term(lit.right))
        return lit

    if isinstance(clause, Atom):
        return atom(clause)
    head = atom(clause.head) if clause.head is not None else None
    return Rule(head, tuple(literal(lit) for lit in clause.body))


def read(llm: Chat, sentences: list[str], schema: Schema, *, samples: int, canonical: Callable[[Atom | Rule], Atom | Rule],
         extra: dict[str, set[int]] | None, context: list[str] | None, tally: Tally,
         node: Callable[[str, str, str], object]) -> list[Reading]:
    """The sentences read once (extraction.extract, as always for one sample), or `samples`
    times and voted on; `node(sentence, problem, vote)` hears each sentence's outcome."""
    if samples <= 1:
        return extraction.extract(llm, sentences, schema, extra=extra, context=context, tally=tally,
                                  node=lambda s, problem: node(s, problem, ""))
    readings = extract_voted(llm, sentences, schema, samples=samples, canonical=canonical,
                             temperature=float(llm.settings.llm_sample_temperature), extra=extra, context=context,
                             tally=tally)
    for r in readings:
        node(r.sentence, r.problem, r.vote)
    return readings
__all__ = ["read", "extract_voted", "vote", "key", "standard", "DISAGREE"]
