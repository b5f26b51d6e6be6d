"""Clauses → controlled English that reads back to the same clause (the inverse of the
grammar, used to show memory in English and to check the grammar by round trips). Variables
are written as their capital letters ("If X is big then X is red."); a clause with no
controlled-English form (arity > 2, numbers, comparisons, negation as failure) gives None."""

from __future__ import annotations

from sym.core.errors import ParseError
from sym.core.logic.terms import Atom, Rule, Var
from sym.core.reason.swm.english import lexicon


def _term(t: object, described: frozenset[str] = frozenset()) -> str | None:
    if isinstance(t, Var):
        return t.name if len(t.name) == 1 and t.name.isupper() else None
    if not isinstance(t, str) or not t:
        return None
    if " " in t or t in described:
        return f"the {t}"
    if "_" in t:
        parts = t.split("_")
        if not parts[0].isalpha():
            return None
        return " ".join(p.capitalize() if p.isalpha() else p for p in parts)
    return t.capitalize() if t.isalpha() else None


def _described(atom: Atom) -> str | None:
    """The one-word constant this atom writes as "the x": the object of a verb after a subject of
    several words ("the red fox chases hens" also reads as "the red fox chases" + "hens")."""
    if len(atom.args) != 2 or not isinstance(atom.args[1], str) or " " in atom.args[1] or "_" in atom.args[1]:
        return None
    first = atom.args[0]
    several = isinstance(first, str) and (" " in first)
    if several and "_" not in atom.pred and lexicon.verb_form(atom.pred, singular=True):
        return atom.args[1]
    return None


def _atom(atom: Atom, described: frozenset[str] = frozenset(), named: frozenset[str] = frozenset(),
          nouns: frozenset[str] = frozenset()) -> str | None:
    """`described`: one-word constants written "the x" wherever they occur in the sentence (a
    name and a description never stand for one thing); `nouns`: one-place predicates said as nouns."""
    terms = [_term(a, described) for a in atom.args]
    args = [t for t in terms if t is not None]
    if len(args) != len(terms) or not atom.pred.replace("_", "").isalpha():
        return None
    if len(args) == 2 and isinstance(atom.args[1], str) and " " not in atom.args[1] and "_" not in atom.args[1]:
        # a kind or a one-word thing, as written ("mice")
        thing = atom.args[1]
        # a word that is never a kind (a modal, a function word) was written as a name: "likes May"
        written = thing.capitalize() if thing in named or thing in lexicon.STOP or thing in lexicon.NAME_WORDS else thing
        args[1] = f"the {thing}" if thing in described or _described(atom) else written
    return phrase(atom.pred, args, atom.neg, noun=atom.pred in nouns)


def phrase(pred: str, args: list[str], neg: bool = False, *, noun: bool = False) -> str | None:
    """`pred` about already-written arguments, in controlled English (no final stop). `noun`: a
    one-place predicate that is an adjective too, read from a noun ("X is an animal", not "X is animal")."""
    words = pred.split("_")
    no = " not" if neg else ""
    if len(args) == 1:
        (x,) = args
        if len(words) != 1:
            return None
        article = "an" if pred[0] in "aeiou" else "a"
        if noun and lexicon.can_be_noun(pred):
            return f"{x} is{no} {article} {pred}"
        if lexicon.can_be_adjective(pred):
            return f"{x} is{no} {pred}"
        if lexicon.verb_form(pred, singular=True):
            return f"{x} does not {lexicon.verb_lemma(pred)}" if neg else f"{x} {pred}"
        return f"{x} is{no} {article} {pred}"
    if len(args) != 2:
        return None
    x, y = args
    last = words[-1]
    if len(words) == 1:
        if pred in lexicon.PREPOSITIONS:
            return f"{x} is{no} {pred} {y}"
        return _verb(x, pred, y, neg)
    head = "_".join(words[:-1])
    if last == "of" and head in ("left", "right"):
        return f"{x} is{no} to the {head} of {y}"
    relational_noun = "NOUN" in lexicon.parts_of_speech(head) or not lexicon.parts_of_speech(head)
    if last == "than" and len(words) == 2 and lexicon.can_be_adjective(head) or \
            last == "of" and len(words) == 2 and lexicon.can_be_adjective(head) and not relational_noun:
        return f"{x} is{no} {head} {last} {y}"
    if last == "of":
        return f"{x} is{no} the {'-'.join(words[:-1])} of {y}"
    if (last in lexicon.PREPOSITIONS or last == "to") and len(words) == 2:
        if lexicon.verb_form(head, singular=True):
            return _verb(x, head, f"{last} {y}", neg)
        if lexicon.can_be_adjective(head):
            return f"{x} is{no} {head} {last} {y}"
    return None


def template_for(pred: str, arity: int) -> str | None:
    """The schema template of a predicate the grammar names: `afraid_of/2` → "{0} is afraid of {1}"."""
    if arity not in (1, 2) or not pred.replace("_", "").isalpha():
        return None
    return phrase(pred, ["{0}", "{1}"][:arity])


def _verb(x: str, verb: str, rest: str, neg: bool) -> str | None:
    if lexicon.verb_form(verb, singular=True) is None:
        return None
    if neg:
        return f"{x} does not {lexicon.verb_lemma(verb)} {rest}"
    return f"{x} {verb} {rest}"


def render_clause(clause: object, described: frozenset[str] = frozenset(),
                  named: frozenset[str] = frozenset(), nouns: frozenset[str] = frozenset()) -> str | None:
    """A clause (text or parsed) → one English sentence, or None. `described`: the one-word
    constants the sentence wrote as descriptions ("the cloth"), written so again; `named`: those
    it wrote as names ("Mildred"), capitalised again; `nouns`: the one-place predicates it read
    from nouns ("an animal"), said as nouns again."""
    if isinstance(clause, str):
        from sym.core.logic.parser import parse_program  # the grammar: only for a clause given as text

        try:
            parsed = [loc.clause for loc in parse_program(clause if clause.rstrip().endswith(".") else clause + ".")]
        except ParseError:
            return None
        if len(parsed) != 1:
            return None
        clause = parsed[0]
    atoms = [clause] if isinstance(clause, Atom) else \
        [a for a in (clause.head, *clause.body) if isinstance(a, Atom)] if isinstance(clause, Rule) else []
    # a one-word constant written as a subject is a name ("Hen is red"): so is it as an object
    # ("If Bob chases Hen then Hen is red.", never "chases hen": a name and a word are two things)
    named = named | {a.args[0] for a in atoms if a.args and isinstance(a.args[0], str) and a.args[0].isalpha()
                     and a.args[0] not in described}
    if isinstance(clause, Atom):
        text = _atom(clause, described, named, nouns)
        return f"{text}." if text else None
    if not isinstance(clause, Rule) or clause.head is None or not clause.body:
        return None
    body = [b for b in clause.body if isinstance(b, Atom)]
    if len(body) != len(clause.body):
        return None
    described = described | frozenset(d for a in (*body, clause.head) if (d := _described(a)) is not None)
    said = [_atom(b, described, named, nouns) for b in body]
    parts = [p for p in said if p is not None]
    head = _atom(clause.head, described, named, nouns)
    if head is None or len(parts) != len(said):
        return None
    return f"If {' and '.join(parts)} then {head}."
