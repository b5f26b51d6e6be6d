"""Several readings of the sentences the grammar cannot read, and a vote over them (settings
llm.samples > 1: `/tell` through the model, a CLUTRR story in `sym bench swm`).

The whole reading (extraction.py: pairs and their converses, restatements, statement menus, the
independent yes/no check) is sampled up to K times, the calls of a round's samples drawn together
(lockstep.py): first a majority's worth, then one at a time, and no more once no later sample
could change any sentence's outcome (`settled_reading`). For each
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
from typing import Any

from sym.core.logic.terms import Atom, Compare, Naf, Rule, Var, clause_text
from sym.core.reason.sampling import needed, rounds
from sym.core.reason.swm import extraction
from sym.core.reason.swm.extraction import Background, Reading
from sym.core.reason.swm.lockstep import Chat, SampleClient, draw
from sym.core.reason.swm.replies import Tally

Clause = tuple[str, Atom | Rule]
DISAGREE = "the model's readings disagree"


def extract_voted(llm: Chat, sentences: list[str], background: Background, *, samples: int, temperature: float,
                  canonical: Callable[[Atom | Rule], Atom | Rule], tally: Tally) -> list[Reading]:
    """`samples` readings of `sentences` (extraction.extract each), and per sentence the clauses
    a majority of the accepted readings state (`canonical` names them as memory would)."""

    def read(client: SampleClient) -> tuple[list[Reading], Tally]:
        own = Tally()
        return extraction.extract(client, sentences, background, tally=own), own

    readings: list[list[Reading]] = []               # one list per sample drawn, a reading per sentence
    for batch in rounds(samples):
        remaining = samples - len(readings)
        if readings and all(settled_reading([rs[at] for rs in readings], remaining) for at in range(len(sentences))):
            break
        for rs, own in draw(llm, batch, read, temperature=temperature):
            tally.calls += own.calls
            tally.repairs += own.repairs
            readings.append([Reading(r.sentence, [(kind, canonical(c)) for kind, c in r.clauses], r.problem,
                                     worded=[a for a in map(canonical, r.worded) if isinstance(a, Atom)],
                                     note=r.note) for r in rs])
    spared = samples - len(readings)
    return [vote(sentence, [rs[at] for rs in readings], spared=spared) for at, sentence in enumerate(sentences)]


def settled_reading(readings: list[Reading], remaining: int) -> bool:
    """Whether `remaining` more samples could not change which clauses the vote keeps for one
    sentence: each clause seen is kept even if every later sample is accepted without it, or
    dropped even if every later one states it, and a clause not yet seen could not win."""
    accepted = [r for r in readings if r.clauses]
    counts = Counter(k for r in accepted for k in {key(c) for c in r.clauses})
    a = len(accepted)
    for c in [*counts.values(), 0]:
        kept_anyway = c >= needed(a + remaining)
        dropped_anyway = c + remaining < needed(a + remaining)
        if not (kept_anyway or dropped_anyway):
            return False
    return True


def vote(sentence: str, readings: list[Reading], *, spared: int = 0) -> Reading:
    """One sentence's reading from its samples' (`readings`, one each): the clauses more than half
    of the accepted ones state; none → the reading's problem says why, with the counts.
    `spared`: samples not drawn because the vote was already settled."""
    k = len(readings)
    accepted = [r for r in readings if r.clauses]
    if not accepted:
        last = next((r.problem for r in reversed(readings) if r.problem), "no reading")
        return Reading(sentence, [], f"no sample's reading was accepted (0 of {k}): {last}", drawn=k)
    counts: Counter[str] = Counter()
    first: dict[str, Clause] = {}
    for reading in accepted:
        keys = {key(c): c for c in reading.clauses}
        for k_, clause in keys.items():
            counts[k_] += 1
            first.setdefault(k_, clause)
    need = needed(len(accepted))
    rest = f"; {spared} more not drawn, the vote was settled" if spared else ""
    shown = f"{', '.join(f'{_text(first[c])} {n}' for c, n in counts.most_common())} " \
            f"({len(accepted)} of {k} samples read it{rest})"
    kept = [first[c] for c in first if counts[c] >= need]
    if not kept:
        return Reading(sentence, [], f"{DISAGREE}: {shown}; a clause needs {need}", vote=shown, drawn=k)
    worded = {a for r in accepted for a in r.worded}
    notes = [r.note for r in accepted if r.note]
    note = f"in {len(notes)} of the {len(accepted)} readings, {notes[0]}" if notes else ""
    return Reading(sentence, kept, "", vote=shown, drawn=k, note=note,
                   worded=[c for _, c in kept if isinstance(c, Atom) and c in worded])


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


def read(llm: Chat, sentences: list[str], background: Background, *, samples: int,
         canonical: Callable[[Atom | Rule], Atom | Rule], tally: Tally,
         node: Callable[[str, str, str], object]) -> list[Reading]:
    """The sentences read once (extraction.extract, as always for one sample), or `samples`
    times and voted on; `node(sentence, problem, vote)` hears each sentence's outcome."""
    if samples <= 1:
        return extraction.extract(llm, sentences, background, tally=tally,
                                  node=lambda s, problem: node(s, problem, ""))
    readings = extract_voted(llm, sentences, background, samples=samples, canonical=canonical,
                             temperature=float(llm.settings.llm_sample_temperature), tally=tally)
    for r in readings:
        node(r.sentence, r.problem, r.vote)
    return readings
__all__ = ["read", "extract_voted", "vote", "settled_reading", "key", "standard", "DISAGREE"]
