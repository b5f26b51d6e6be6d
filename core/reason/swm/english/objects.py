"""Noun phrases beyond a name or a description, read for a Meaning (semantics.py): what a
non-restrictive relative asserts of a name, a possessive, a quantified object and an indefinite
object in a condition, and the generic noun of "every …" / "which …"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sym.core.logic.terms import Atom, Var
from sym.core.reason.swm.english import classes, lexicon
from sym.core.reason.swm.english.scope import Arg, Refused, Rejected, _pred

if TYPE_CHECKING:
    from sym.core.reason.swm.english.parse import Node
    from sym.core.reason.swm.english.semantics import Meaning


def _kids(node: Node) -> tuple[Node, ...]:
    return node.kids


def _toks(node: Node) -> tuple[Any, ...]:    # Toks: the value is the word's index
    return node.toks


def side_relative(meaning: Meaning, name: Node, vp: Node) -> Arg:
    """"Bob, who is tall, …": the name, and what the relative asserts of it (a fact of its own)."""
    if not meaning.scope.asserting:
        raise Refused("a non-restrictive relative clause in a condition or a question asserts something")
    term = meaning.name(name)
    words = meaning.content(name)
    if len(words) == 1 and lexicon.parts_of_speech(words[0].text) and lexicon.is_plural_noun(words[0].text):
        raise Rejected("a bare plural is not a name")
    meaning.scope.side += meaning.vp(vp, term, True)
    return term


def possessive(meaning: Meaning, node: Node) -> Var:
    """"Bob's sister" (subject or object): the one who is the sister of Bob (a definite: whoever is),
    `sister_of(X, bob)`; "Bob's sister is Al." says who (statements read it as the relation)."""
    name, *rel = _kids(node)
    words = [meaning.content(k)[0] for k in rel]
    if any(w.type != "W" for w in words) or len(words) > 1 or not lexicon.can_be_noun(words[-1].text) \
            or lexicon.is_plural_noun(words[-1].text):
        raise Rejected("a possessive is of one thing named by lower-case nouns")
    owner = meaning.name(name)
    if isinstance(owner, Var):
        raise Rejected("a possessive of a variable")
    pred = _pred([w.text for w in words] + ["of"])
    var = meaning.scope.quantified("the", f"{meaning.content(name)[-1].text}'s {words[-1].text}")
    meaning.scope.universal[var] = ("the", [Atom(pred, (var, owner))])
    meaning.scope.roles[var] = (pred, owner)
    return var


def quantified_object(meaning: Meaning, node: Node) -> Var:
    """every / each / any / all / no + noun (+ relative), or a bare plural with a relative clause
    ("cats that purr", read as every such cat): a variable the rule's body restricts."""
    kind, kids = node.data, _kids(node)
    first = meaning.w(_toks(node)[0].value).low if _toks(node) else ""
    singular: bool | None
    if kind == "kind_rel_obj":
        quant, singular, words = "any", False, [meaning.content(k)[0] for k in kids[:-1]]
        rels = kids[-1:]
    else:
        quant = "no" if kind == "no_obj" else "any" if first == "any" else "every"
        singular = True if first in ("every", "each") else False if first == "all" else None
        words, rels = meaning.content(kids[0]), kids[1:]
    if any(lexicon.noun_lemma(w.text) in classes.TEMPORAL for w in words):
        raise Refused(f"'{' '.join(w.text for w in meaning.content(node))}' says when, not what")   # "every day"
    var = meaning.scope.quantified(quant, " ".join(w.text for w in meaning.content(node)))
    if kind == "kind_rel_obj":
        if not all(w.type == "W" or i == 0 and w is meaning.words[0] for i, w in enumerate(words)):
            raise Rejected("a capitalised word in a bare plural")
        atoms, number = meaning.nominal(words, var, singular=False), False
    else:
        atoms, number = gnoun(meaning, kids[0], var, singular=singular)
    asserting, meaning.scope.asserting = meaning.scope.asserting, False
    try:
        for rel in rels:
            atoms += meaning.vp(_kids(rel)[0], var, number)
    finally:
        meaning.scope.asserting = asserting
    if not atoms:
        raise Rejected("an object of no kind")
    meaning.scope.universal[var] = (quant, atoms)
    return var


def indefinite_object(meaning: Meaning, node: Node) -> Var:
    """"a donkey" as an object in a condition: a variable of the rule's body, restricted there
    ("If a farmer owns a donkey then …" → `…, donkey(Y), owns(X, Y)`); anywhere else it says that
    there is one (`Bob likes a cat.`: which?), refused."""
    said = " ".join(w.text for w in meaning.content(node))
    if not meaning.scope.conditions:
        raise Refused(f"'{said}' says that there is one: which? (in a condition it is read: 'If Bob owns a cat …')")
    kids = _kids(node)
    words = [w for w in meaning.content(kids[0]) if w.type != "COMMA"]
    if any(lexicon.noun_lemma(w.text) in classes.TEMPORAL for w in words):
        raise Refused(f"'{said}' says when, not what")
    var = meaning.scope.fresh()
    atoms, number = gnoun(meaning, kids[0], var, singular=True)
    for rel in kids[1:]:
        atoms += meaning.vp(_kids(rel)[0], var, number)
    if not atoms:
        raise Rejected("an object of no kind")
    meaning.scope.body += atoms
    meaning.scope.existential.add(var)
    if words[-1].type != "THING":
        meaning.scope.indefinites.append((tuple(w.low for w in words[:-1]), lexicon.noun_lemma(words[-1].text), var))
    return var


def gnoun(meaning: Meaning, node: Node, var: Arg, *, singular: bool | None) -> tuple[list[Atom], bool]:
    """(ADJ ,)* (NOUN | thing) → (atoms, singular)."""
    ws = [w for w in meaning.content(node) if w.type != "COMMA"]
    *mods, head = ws
    if head.type == "THING":
        number = head.low in ("thing", "person")
        if singular is not None and number != singular:
            raise Rejected("number of 'things'")
        return meaning.adjectives(mods, var), number
    number = not lexicon.is_plural_noun(head.text) if singular is None else singular
    return meaning.nominal(ws, var, singular=number), number


def object_gap(meaning: Meaning, verb: Node, obj: Node, singular: bool) -> bool:
    """Whether "… that V O" after a plural may be "… that [O's subject V] [verb O]", its object the
    relative's own noun ("Streets that police patrol": the police patrol them, not streets that
    police a patrol): V can be a bare noun and O, one lower-case word, a bare verb."""
    at = verb.leaves[0]
    if singular or not at or meaning.words[at - 1].type not in ("THAT", "WHO", "WHICH") or obj.data != "object":
        return False
    words = meaning.content(obj)
    if len(words) != 1 or words[0].type != "W":
        return False
    other = words[0].text
    return lexicon.can_be_noun(meaning.words[at].text) and "VERB" in lexicon.parts_of_speech(other) \
        and lexicon.verb_lemma(other) == other.lower()
