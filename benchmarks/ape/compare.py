"""What sym reads of an APE text, in the DRS translation's terms, and whether the two are the same
clauses up to the names of variables, the order of clauses and literals, and which constant of the
text's own is which.

sym reads a text as one /tell into a new memory does: `split_sentences`, then the fast path's
`read` (core/reason/swm/fastpath.py: `translate` each sentence, and the checks across them); one
sentence refused refuses the text, with the reason /tell gives. A description constant
(`the small card` → `'small card'`) is a thing of the text's own, like a DRS's referent: it becomes
a `Sk`, and its words become what the DRS says of its referent (`card(#)`, `small(#)`: the last
word the noun, the others adjectives)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from benchmarks.ape.drs import Clause, Sk, count_literal
from sym.core.logic.parser import parse_program
from sym.core.logic.terms import Aggregate, Atom, Compare, Rule
from sym.core.logic.terms import Var as LVar


@dataclass(frozen=True)
class SymReading:
    clauses: list[Clause] | None     # None: refused
    shown: list[str]                 # the clauses as sym wrote them
    reason: str = ""                 # why refused
    sentence: str = ""               # the sentence refused


def sym_read(text: str) -> SymReading:
    from sym.core.memory.working import WorkingMemory
    from sym.core.reason.swm import fastpath
    from sym.core.reason.swm.english import split_sentences
    sentences = split_sentences(text)
    if not sentences:
        return SymReading(None, [], "no sentence", text)
    shown: list[str] = []
    written: dict[str, bool] = {}
    for sentence, tr, why in fastpath.read(WorkingMemory(), sentences):   # as one /tell into a new memory
        if tr is None:
            return SymReading(None, shown, why, sentence)
        if tr.updates:
            return SymReading(None, shown, "is a state change", sentence)
        written.update(tr.written)
        shown += tr.clauses
    described = {c for c, as_name in written.items() if not as_name}
    return SymReading(sym_clauses(shown, described), shown)


def sym_clauses(texts: list[str], described: set[str]) -> list[Clause]:
    def term(value: Any) -> Any:
        return Sk("the " + value) if isinstance(value, str) and value in described else value

    def atom(a: Atom) -> Atom:
        return Atom(a.pred, tuple(term(v) for v in a.args), a.neg)

    out: list[Clause] = []
    for text in texts:
        for located in parse_program(text):
            clause = located.clause
            if isinstance(clause, Atom):
                out.append((atom(clause), ()))
            elif (count := _count(clause, described)) is not None:
                out.append(count)
            elif isinstance(clause, Rule) and all(isinstance(b, Atom) for b in clause.body):
                out.append((atom(clause.head) if clause.head is not None else None,
                            tuple(atom(b) for b in clause.body if isinstance(b, Atom))))
            else:
                out.append((Atom("#unsupported", (str(clause),)), ()))   # never equal to a DRS clause
    for const in sorted(described):
        *adjectives, noun = const.split()
        out += [(Atom(w.replace("-", "_"), (Sk("the " + const),)), ()) for w in [noun, *adjectives]]
    return list(dict.fromkeys(out))


def _count(clause: Any, described: set[str]) -> Clause | None:
    """sym's `:- aggregate_all(count, Goal, N), N > k.` over names and one variable, as
    drs.count_literal writes APE's `at most k`; None for anything else."""
    if not (isinstance(clause, Rule) and clause.head is None and len(clause.body) == 2):
        return None
    agg, test = clause.body
    if not (isinstance(agg, Aggregate) and agg.op == "count" and isinstance(test, Compare) and test.op == ">"
            and test.left == agg.result and isinstance(test.right, int) and all(isinstance(a, Atom) for a in agg.goal)):
        return None
    atoms = [a for a in agg.goal if isinstance(a, Atom)]
    variables = {v for a in atoms for v in a.args if isinstance(v, LVar)}
    if len(variables) != 1 or any(v in described for a in atoms for v in a.args):
        return None
    return count_literal(atoms, test.right)


# -- equality up to renaming -------------------------------------------------------------------------------

def _show_term(value: Any, names: dict[Any, str]) -> str:
    if isinstance(value, (LVar, Sk)):
        return names.get(value, str(value))
    return repr(value)


def _show_atom(a: Atom, names: dict[Any, str]) -> str:
    return ("~" if a.neg else "") + a.pred + "(" + ",".join(_show_term(v, names) for v in a.args) + ")"


def _canonical(clause: Clause, skolems: dict[Sk, str]) -> str:
    """The clause with its variables named so that renaming and literal order do not matter:
    the least text over every naming of its variables (few: rules here have ≤ 6)."""
    head, body = clause
    variables = list(dict.fromkeys(v for a in ([head] if head else []) + list(body) for v in a.args
                                   if isinstance(v, LVar)))
    best = None
    orders = itertools.permutations(range(len(variables))) if len(variables) <= 6 else [range(len(variables))]
    for order in orders:
        names: dict[Any, str] = {**skolems, **{v: f"_{i}" for v, i in zip(variables, order)}}
        text = (_show_atom(head, names) if head else "") + " :- " + " & ".join(sorted(_show_atom(b, names) for b in body))
        if best is None or text < best:
            best = text
    return best or ""


def _skolems(clauses: list[Clause]) -> list[Sk]:
    return sorted({v for h, body in clauses for a in ([h] if h else []) + list(body) for v in a.args if isinstance(v, Sk)})


def _signature(sk: Sk, clauses: list[Clause]) -> tuple[str, ...]:
    """What the facts say of a Skolem constant alone (its types): sorted unary predicates."""
    return tuple(sorted(h.pred for h, body in clauses if h and not body and h.args == (sk,) and not h.neg))


def same(a: list[Clause], b: list[Clause]) -> bool:
    """The same clauses up to renaming of variables (per clause) and of Skolem constants (per text)."""
    ska, skb = _skolems(a), _skolems(b)
    if len(ska) != len(skb):
        return False
    names_a = {sk: f"#{i}" for i, sk in enumerate(ska)}
    target = {_canonical(c, names_a) for c in a}
    sig_a = {sk: _signature(sk, a) for sk in ska}
    sig_b = {sk: _signature(sk, b) for sk in skb}
    if sorted(sig_a.values()) != sorted(sig_b.values()):
        return False
    groups: dict[tuple[str, ...], tuple[list[Sk], list[Sk]]] = {}
    for sk in ska:
        groups.setdefault(sig_a[sk], ([], []))[0].append(sk)
    for sk in skb:
        groups[sig_b[sk]][1].append(sk)
    choices = [[list(zip(left, perm)) for perm in itertools.permutations(right)] for left, right in groups.values()]
    for n, pick in enumerate(itertools.product(*choices)):
        if n > 5040:
            break
        names_b = {right: names_a[left] for pairs in pick for left, right in pairs}
        if {_canonical(c, names_b) for c in b} == target:
            return True
    return False


def show(clauses: list[Clause]) -> list[str]:
    """Clauses as text, for reports (Skolem constants as #noun:ref or #the …)."""
    out = []
    for head, body in clauses:
        tail = ", ".join(_show_atom(b, {}) for b in body)
        if head is None:
            out.append(f":- {tail}.")
        else:
            out.append(_show_atom(head, {}) + (f" :- {tail}" if body else "") + ".")
    return out
