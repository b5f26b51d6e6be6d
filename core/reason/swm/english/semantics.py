"""Parse trees of statements → logic clauses, one reading at a time.

A reading becomes clauses only when every word fits its slot (agreement, word class from the
lexicon) and the result says exactly what the sentence says; anything doubtful rejects the
reading (`Rejected`), never guesses. Naming: nouns by singular lemma, adjectives as written,
verbs in 3rd person singular with the subject first, "the R of Y" as `r_of`, prepositional
relations as one predicate (`afraid_of`, `left_of`, `lives_in`); names lower case, `_`
between words; "the bald eagle" → 'bald eagle'; a bare plural object is a kind (`mice`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sym.core.logic.terms import Atom, Var
from sym.core.reason.swm.english import lexicon
from sym.core.reason.swm.english.lexicon import Word

if TYPE_CHECKING:
    from sym.core.reason.swm.english.parse import Node

Arg = str | Var     # what a noun phrase stands for: a constant, or a variable of a rule


class Rejected(Exception):
    """This reading does not give a sound translation."""


@dataclass
class Scope:
    """Variables of one sentence; `rule` is False for facts (no variables allowed)."""

    rule: bool
    order: list[Var] = field(default_factory=list)
    body: list[Atom] = field(default_factory=list)      # class atoms of indefinite NPs ("a cat")

    def fresh(self) -> Var:
        if not self.rule:
            raise Rejected("a variable in a fact")
        var = Var("XYZWUV"[len(self.order)] if len(self.order) < 6 else f"V{len(self.order)}")
        self.order.append(var)
        return var

    def pronoun(self) -> Var:
        named = [v for v in self.order if len(v.name) == 1 and v.name in "XYZWUV"]
        if len(named) != 1:
            raise Rejected("a pronoun with no single antecedent")
        return named[0]


def _pred(parts: list[str]) -> str:
    name = "_".join(p.lower().replace("-", "_") for p in parts)
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or name in ("not", "false", "true"):
        raise Rejected(f"not a predicate name: {name}")
    return name


def leaves(node: Node) -> tuple[int, ...]:
    return node.leaves


def _kids(node: Any) -> tuple[Node, ...]:
    """The child nodes of a Node (Any: questions.py holds a reading as a lark Tree)."""
    kids: tuple[Node, ...] = node.kids
    return kids


def _toks(node: Node) -> tuple[Any, ...]:    # lark Tokens, whose value is a word index
    return node.toks


class Meaning:
    """Walks one tree of a sentence whose words are `words`."""

    def __init__(self, words: list[Word], scope: Scope) -> None:
        self.words = words
        self.scope = scope

    def w(self, i: int) -> Word:
        return self.words[i]

    # -- noun phrases ----------------------------------------------------------------

    def content(self, node: Node) -> list[Word]:
        return [self.words[i] for i in leaves(node)]

    def name(self, node: Node) -> Arg:
        ws = self.content(node)
        if len(ws) == 1:
            word = ws[0]
            if self.scope.rule and len(word.text) == 1 and word.text.isupper():
                return Var(word.text)          # "If B is the son of A, …"
            if len(word.text) == 1 and word.type != "N":
                raise Rejected("a one-letter name outside a rule")
            return word.low.replace("-", "_")
        first, rest = ws[0], ws[1:]
        if not (first.type == "C" and all(w.type in ("C", "N") for w in rest)
                or first.type == "W" and all(w.type == "N" for w in rest)):
            raise Rejected("a multi-word name must be capitalised")
        return "_".join(w.low.replace("-", "_") for w in ws)

    def definite(self, words: list[Word]) -> str:
        if any(w.type != "W" for w in words) or len(words) > 4:
            raise Rejected("a definite noun phrase of lower-case words")
        if lexicon.is_plural_noun(words[-1].text) and lexicon.parts_of_speech(words[-1].text):
            raise Rejected("a plural definite (a group) is not an individual")
        return " ".join(w.low for w in words)

    def np(self, node: Node) -> tuple[Arg, bool]:
        """Subject noun phrase → (term, singular)."""
        kind = node.data
        if kind == "np":
            (name,) = _kids(node)
            term = self.name(name)
            if isinstance(term, str) and len(self.content(name)) == 1:
                word = self.content(name)[0].text
                if lexicon.parts_of_speech(word) and lexicon.is_plural_noun(word):
                    raise Rejected("a bare plural is not a name")   # "Dogs are …" is generic
            return term, True
        if kind == "definite":
            return self.definite([self.words[i] for i in leaves(node)[1:]]), True
        if kind == "something":
            return self.scope.fresh(), True
        if kind == "it":
            return self.scope.pronoun(), True
        if kind == "they":
            return self.scope.pronoun(), False
        if kind == "indefinite":
            if not self.scope.rule:
                raise Rejected("'a …' as a subject of a fact is generic or existential")
            var = self.scope.fresh()
            self.scope.body += self.nominal(self.content(node)[1:], var, singular=True)
            return var, True
        raise Rejected(kind)

    def nominal(self, words: list[Word], var: Arg, *, singular: bool) -> list[Atom]:
        """ADJ* NOUN about `var` → atoms (adjectives first, then the noun)."""
        *mods, head = words
        number_ok = (not lexicon.is_plural_noun(head.text)) if singular else lexicon.can_be_plural(head.text)
        if not number_ok or not lexicon.can_be_noun(head.text):
            raise Rejected("noun number or class")
        if head.type == "C" and head is not self.words[0]:
            raise Rejected("a capitalised noun")
        return [*self.adjectives(mods, var), Atom(_pred([lexicon.noun_lemma(head.text)]), (var,))]

    def adjectives(self, words: list[Word], var: Arg) -> list[Atom]:
        out: list[Atom] = []
        for w in words:
            if not lexicon.can_be_adjective(w.text) or (w.type == "C" and w is not self.words[0]):
                raise Rejected(f"{w.text!r} is not an adjective")
            out.append(Atom(_pred([w.text]), (var,)))
        return out

    def obj(self, node: Node) -> Arg:
        kind = node.data
        if kind == "object":
            words = self.content(_kids(node)[0])
            if len(words) == 1 and words[0].type == "W" and "ADV" in lexicon.parts_of_speech(words[0].text) \
                    and not lexicon.is_plural_noun(words[0].text):
                raise Rejected(f"{words[0].text!r} may be an adverb, not a thing")   # "Bob runs fast."
            return self.name(_kids(node)[0])
        if kind == "definite_obj":
            return self.definite([self.words[i] for i in leaves(node)[1:]])
        if kind == "it" or kind == "they":
            return self.scope.pronoun()
        if kind == "something":
            return self.scope.fresh()
        raise Rejected(kind)

    def subject(self, node: Node) -> tuple[list[Arg], bool]:
        """→ (terms, singular)."""
        if node.data == "coord_subject":
            terms: list[Arg] = []
            for np in _kids(node):
                term, singular = self.np(np)
                if not singular or isinstance(term, Var):
                    raise Rejected("coordinated subjects are names")
                terms.append(term)
            return terms, False
        (np,) = _kids(node)
        term, singular = self.np(np)
        return [term], singular

    # -- verb phrases ------------------------------------------------------------------

    def vp(self, node: Node, subject: Arg, singular: bool, *, copula: str | None = None, base: bool = False) -> list[Atom]:
        """Conjuncts of a verb phrase about `subject`. `copula`/`base`: a question's fronted
        "is"/"does" (the first conjunct has no copula / a bare verb)."""
        atoms: list[Atom] = []
        last: tuple[Any, ...] | None = ("cop", False) if copula else None
        if copula and (copula == "IS") != singular:
            raise Rejected("agreement")
        for i, conj in enumerate(_kids(node)):
            if conj.data == "sep":
                if any(t.type == "BUT" for t in _toks(conj)) and not (i + 1 < len(node.kids)):
                    raise Rejected("dangling but")
                continue
            new, last = self.vconj(conj, subject, singular, last, base=base and not atoms)
            atoms += new
        return atoms

    def vconj(self, node: Node, subject: Arg, singular: bool, last: tuple[Any, ...] | None, *,
              base: bool = False) -> tuple[list[Atom], tuple[Any, ...]]:
        kind = node.data
        toks = _toks(node)
        if kind == "cop":
            copula = _toks(_kids(node)[0])[0].type
            if (copula == "IS") != singular:
                raise Rejected("agreement")
            neg = any(t.type == "NOT" for t in toks)
            return self.comp(_kids(node)[1], subject, singular, neg), ("cop", neg)
        if kind == "cop_cont":
            neg = any(t.type == "NOT" for t in toks)
            if last is None or last[0] != "cop" or (last[1] and not neg):
                raise Rejected("an adjective needs its copula (and 'not big and red' is ambiguous)")
            return self.comp(_kids(node)[0], subject, singular, neg), ("cop", neg)
        if kind in ("verb", "verb_prep"):
            word = self.content(_kids(node)[0])[0]
            if word.type != "W":
                raise Rejected("a verb is lower case")
            pred = lexicon.base_verb(word.text) if base else lexicon.verb_form(word.text, singular=singular)
            if pred is None:
                raise Rejected(f"{word.text!r} is not a verb agreeing with its subject")
            objs: Sequence[Node] = [k for k in _kids(node)[1:]]
            if kind == "verb_prep":
                pred = f"{pred}_{self.w(toks[0].value).low}"
            if not objs:
                if not lexicon.parts_of_speech(word.text) and (not singular or base):
                    raise Rejected("an unknown word alone after a plural subject may be an adjective")
                return [Atom(_pred([pred]), (subject,))], ("verb", pred, False, True)
            return [Atom(_pred([pred]), (subject, self.obj(objs[0])))], ("verb", pred, False, False)
        if kind in ("neg_verb", "neg_verb_prep"):
            aux = toks[0].type
            if (aux == "DOES") != singular:
                raise Rejected("agreement")
            word = self.content(_kids(node)[0])[0]
            pred = lexicon.base_verb(word.text) if word.type == "W" else None
            if pred is None:
                raise Rejected("not a bare verb after do/does not")
            if kind == "neg_verb_prep":
                pred = f"{pred}_{self.w(toks[2].value).low}"
            objs = _kids(node)[1:]
            args = (subject, self.obj(objs[0])) if objs else (subject,)
            return [Atom(_pred([pred]), args, True)], ("verb", pred, True, not objs)
        if kind == "obj_cont":
            if last is None or last[0] != "verb" or last[2] or last[3]:
                raise Rejected("an object needs its (positive, transitive) verb")
            return [Atom(last[1], (subject, self.obj(_kids(node)[0])))], last
        raise Rejected(kind)

    def comp(self, node: Node, subject: Arg, singular: bool, neg: bool) -> list[Atom]:
        kind = node.data
        ws = self.content(node)
        if kind == "adj":
            (w,) = ws
            if w.type != "W":
                raise Rejected("a capitalised word after a copula is a name")
            noun = not singular and lexicon.is_plural_noun(w.text) and lexicon.can_be_noun(w.text)
            adj = lexicon.can_be_adjective(w.text)
            if noun == adj:
                raise Rejected(f"{w.text!r}: neither or both of noun and adjective")
            if noun:
                return [Atom(_pred([lexicon.noun_lemma(w.text)]), (subject,), neg)]
            return [Atom(_pred([w.text]), (subject,), neg)]
        if kind == "member":
            if not singular:
                raise Rejected("'are a …'")
            atoms = self.nominal(ws[1:], subject, singular=True)
            if neg and len(atoms) > 1:
                raise Rejected("'is not a big cat' does not say which part fails")
            return [Atom(a.pred, a.args, neg) for a in atoms]
        if kind == "relation":
            if not singular:
                raise Rejected("plural relation")
            at = next(i for i, w in enumerate(ws) if w.type == "OF")
            rel = ws[1:at]
            if any(w.type != "W" for w in rel):
                raise Rejected("relation words are lower case")
            return [Atom(_pred([w.text for w in rel] + ["of"]), (subject, self.obj(_kids(node)[-1])), neg)]
        if kind in ("adj_of", "adj_than", "adj_prep"):
            word, link = ws[0], self.w(_toks(node)[0].value)
            if word.type != "W" or not (lexicon.can_be_adjective(word.text) or "ADV" in lexicon.parts_of_speech(word.text)
                                         or "NOUN" in lexicon.parts_of_speech(word.text) and kind == "adj_of"):
                raise Rejected("not a relation word")
            return [Atom(_pred([word.text, link.low]), (subject, self.obj(_kids(node)[-1])), neg)]
        if kind == "dir_of":
            word = self.w(leaves(node)[2])
            if word.type != "W":
                raise Rejected("direction")
            return [Atom(_pred([word.text, "of"]), (subject, self.obj(_kids(node)[-1])), neg)]
        if kind == "prep":
            link = self.w(_toks(node)[0].value)
            return [Atom(_pred([link.low]), (subject, self.obj(_kids(node)[-1])), neg)]
        raise Rejected(kind)


# -- statements ----------------------------------------------------------------------

def _text(heads: list[Atom], body: list[Atom]) -> list[str]:
    if not body:
        if any(isinstance(a, Var) for h in heads for a in h.args):
            raise Rejected("a variable in a fact")
        return [f"{h}." for h in dict.fromkeys(heads)]
    bound = {a for atom in body for a in atom.args if isinstance(a, Var)}
    if any(isinstance(a, Var) and a not in bound for h in heads for a in h.args):
        raise Rejected("a head variable the body does not bind")
    tail = ", ".join(str(b) for b in dict.fromkeys(body))
    return [f"{h} :- {tail}." for h in dict.fromkeys(heads)]


def clauses_of(meaning: Meaning, node: Node) -> list[Atom]:
    atoms: list[Atom] = []
    for clause in _kids(node):
        if clause.data == "sep":
            continue
        subject, vp = _kids(clause)
        terms, singular = meaning.subject(subject)
        for term in terms:
            atoms += meaning.vp(vp, term, singular)
    return atoms


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


def statement(words: list[Word], tree: Node) -> tuple[str, list[str]]:
    """One reading of a statement → (kind, clause texts); raises Rejected."""
    (node,) = _kids(tree)
    kind = node.data
    if kind == "facts":
        meaning = Meaning(words, Scope(rule=False))
        return "fact", _text(clauses_of(meaning, _kids(node)[0]), [])
    if kind == "conditional":
        meaning = Meaning(words, Scope(rule=True))
        body_node, head_node = _kids(node)
        body = clauses_of(meaning, body_node)
        meaning.scope.rule = True
        body = meaning.scope.body + body
        heads = clauses_of(meaning, head_node)
        return "rule", _text(heads, body)
    if kind == "generic":
        subject, vp = _kids(node)
        meaning = Meaning(words, Scope(rule=True))
        x = meaning.scope.fresh()
        parts = _kids(subject)
        quant = subject.data
        if quant in ("gen_everything", "gen_nothing"):
            body, singular = [], True
        else:
            body, singular = gnoun(meaning, parts[0], x, singular=True if quant == "gen_every" else
                                   (False if quant == "gen_all" else None))
            parts = parts[1:]
        for rel in parts:
            body += meaning.vp(_kids(rel)[0], x, singular)
        if not body:
            raise Rejected("a rule about everything")
        heads = meaning.vp(vp, x, singular)
        if quant in ("gen_no", "gen_nothing"):
            if len(heads) != 1 or heads[0].neg:
                raise Rejected("'no … is A and B' is not a strong negation of each")
            heads = [heads[0].negate()]
        return "rule", _text(heads, body)
    raise Rejected(kind)
