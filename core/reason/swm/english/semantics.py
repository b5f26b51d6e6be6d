"""Parse trees of statements → logic clauses, one reading at a time.

A reading becomes clauses only when every word fits its slot (agreement, word class from the
lexicon) and the result says exactly what the sentence says; anything doubtful rejects the
reading (`Rejected`), never guesses. Naming: nouns by singular lemma, adjectives as written,
verbs in 3rd person singular with the subject first, "the R of Y" as `r_of`, prepositional
relations as one predicate (`afraid_of`, `left_of`, `lives_in`); names lower case, `_`
between words; "the bald eagle" → 'bald eagle'; a bare plural object is a kind (`mice`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sym.core.logic.terms import Atom, Var
from sym.core.reason.swm.english import classes, lexicon, objects
from sym.core.reason.swm.english.lexicon import Word
from sym.core.reason.swm.english.objects import gnoun
from sym.core.reason.swm.english.scope import Arg, Refused, Rejected, Scope, Written, _pred

if TYPE_CHECKING:
    from sym.core.reason.swm.english.parse import Node

__all__ = ["Arg", "Meaning", "Refused", "Rejected", "Scope", "Written", "clauses_of", "gnoun"]


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
        self.subject_now: Arg | None = None        # the subject of the clause being read (for "himself")

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
            const = word.low.replace("-", "_")
            cases = self.scope.cases.setdefault(const, set())
            cases.add(word.type)
            if len(cases) > 1:          # "Turkey eats turkey.": the name Turkey, and turkey the meat
                raise Refused(f"'{word.low.capitalize()}' and '{word.low}' would be one thing: a name and a word")
        else:
            first, rest = ws[0], ws[1:]
            if self.scope.rule and any(len(w.text) == 1 and w.text.isupper() for w in ws):
                raise Rejected("capital letters in a rule are variables, not parts of a name")   # "gives Y Z"
            if not (first.type == "C" and all(w.type in ("C", "N") for w in rest)
                    or first.type == "W" and all(w.type == "N" for w in rest)):
                raise Rejected("a multi-word name must be capitalised")
            const = "_".join(w.low.replace("-", "_") for w in ws)
        self.scope.names.add(const)
        return const

    def definite(self, words: list[Word]) -> Arg:
        """"the bald eagle" → 'bald eagle'; in a rule, "the dog" after "a dog" → its variable."""
        if any(w.type != "W" for w in words) or len(words) > 4:
            raise Rejected("a definite noun phrase of lower-case words")
        *mods, head = words
        if head.low in classes.ANAPHORIC:
            raise Refused(f"'the {head.text}' points back into the text: say whom")      # "The former is happy."
        if lexicon.is_plural_noun(head.text) and lexicon.parts_of_speech(head.text):
            raise Rejected("a plural definite (a group) is not an individual")
        if not lexicon.can_be_noun(head.text):
            raise Rejected(f"'{head.text}' is not a noun")
        if mods:
            last, before = lexicon.parts_of_speech(head.text), lexicon.parts_of_speech(mods[-1].text)
            if last & {"ADV", "ADJ"} and "NOUN" in before and "ADJ" not in before:
                # "drives the car fast", "paints the wall white": the noun phrase ends at the noun
                raise Refused(f"'{head.text}' after 'the {mods[-1].text}' may say how, or what the verb makes of it")
        referent = self.refers_back(mods, head)
        if referent is not None:
            return referent
        const = " ".join(w.low for w in words)
        if self.scope.rule and const not in self.scope.descriptions:
            # what else the rule's thing it might be: a noun's variable other than the subject of its own
            # clause ("Cats chase the dog.": not the cat, that is "itself"; "the animal" after "a cat" is)
            others = [h for _, h, var in self.scope.indefinites if var != self.subject_now]
            if others:
                self.scope.loose.append((const, others))
        self.scope.descriptions.add(const)
        return const

    def refers_back(self, mods: list[Word], head: Word) -> Var | None:
        """The variable of the antecedent's "a dog" that the consequent's "the dog" repeats; a
        definite that could repeat one anywhere else is refused (which dog?)."""
        lemma = lexicon.noun_lemma(head.text)
        same = [(m, var) for m, h, var in self.scope.indefinites if h == lemma]
        if not same:
            return None
        if not self.scope.head or len(same) != 1 or not {w.low for w in mods} <= set(same[0][0]):
            raise Refused(f"'the {head.text}' may or may not be the {head.text} the sentence introduced")
        return same[0][1]

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
            self.personal(node)
            return self.scope.pronoun(), True
        if kind == "they":
            return self.scope.pronoun(), False
        if kind == "name_rel":
            name, vp = _kids(node)
            return objects.side_relative(self, name, vp), True
        if kind == "possessive":
            return objects.possessive(self, node), True
        if kind == "indefinite":
            if not self.scope.rule:
                raise Rejected("'a …' as a subject of a fact is generic or existential")
            var = self.scope.fresh()
            words = self.content(node)[1:]
            self.scope.body += self.nominal(words, var, singular=True)
            self.scope.indefinites.append((tuple(w.low for w in words[:-1]), lexicon.noun_lemma(words[-1].text), var))
            return var, True
        raise Rejected(kind)

    def personal(self, node: Node) -> None:
        """A he / she / him / her after a name may be that name, not the rule's someone ("If John owns
        a donkey then he beats it." was beats(X, X): he took the donkey): refused, never guessed."""
        word = self.words[leaves(node)[0]].low
        if word in ("he", "she", "him", "her") and self.scope.names:
            raise Refused(f"'{word}' may be {sorted(self.scope.names)[0].capitalize()} or the rule's someone: say which")

    def nominal(self, words: list[Word], var: Arg, *, singular: bool) -> list[Atom]:
        """ADJ* NOUN about `var` → atoms (adjectives first, then the noun)."""
        *mods, head = words
        number_ok = (not lexicon.is_plural_noun(head.text)) if singular else lexicon.can_be_plural(head.text)
        if not number_ok or not lexicon.can_be_noun(head.text):
            raise Rejected("noun number or class")
        if head.type == "C" and head is not self.words[0]:
            raise Rejected("a capitalised noun")
        if lexicon.noun_lemma(head.text) in classes.METALINGUISTIC and not mods:
            raise Refused(f"'a {head.text}' says something of a word, not of a thing")   # "Run is a verb."
        for w in mods:
            if w.low in classes.SUBSECTIVE:
                raise Refused(f"'{w.text} {head.text}' is {w.low} as {head.text}s go, not {w.low} and a {head.text}")
        self.scope.nouns.add(noun := _pred([lexicon.noun_lemma(head.text)]))
        return [*self.adjectives(mods, var), Atom(noun, (var,))]

    def adjectives(self, words: list[Word], var: Arg) -> list[Atom]:
        out: list[Atom] = []
        for w in words:
            if not lexicon.can_be_adjective(w.text) or (w.type == "C" and w is not self.words[0]):
                raise Rejected(f"{w.text!r} is not an adjective")
            if why := lexicon.not_a_property(w.text):
                raise Refused(why)
            if w.low in classes.RELATIONAL:
                raise Refused(f"'{w.text}' relates two things: {w.text} from what?")     # "a different man"
            out.append(Atom(_pred([w.text]), (var,)))
        return out

    def obj(self, node: Node, *, after_verb: bool = False) -> Arg:
        """An object; `after_verb`: of a verb, where "the house red" may be "the house" + what the
        verb makes of it ("paints the house red", "drinks the coffee black")."""
        kind = node.data
        if kind == "object":
            words = self.content(_kids(node)[0])
            if len(words) == 1:
                self.object_word(words[0])
            elif any(lexicon.noun_lemma(w.text) in classes.TEMPORAL for w in words):
                raise Refused(f"'{' '.join(w.text for w in words)}' may say when, not what")   # "Kraskai Saturdays"
            return self.name(_kids(node)[0])
        if kind == "definite_obj":
            words = [self.words[i] for i in leaves(node)[1:]]
            if lexicon.noun_lemma(words[-1].text) in classes.TEMPORAL:
                raise Refused(f"'the … {words[-1].text}' says when, not what")      # "the whole night"
            if after_verb and len(words) > 1 and lexicon.parts_of_speech(words[-1].text) & {"ADJ", "ADV"}:
                raise Refused(f"'{words[-1].text}' after 'the {words[-2].text}' may say how, or what the verb makes of it")
            term = self.definite(words)
            if isinstance(term, Var) and term == self.subject_now:       # "Every cat that is hungry likes the cat."
                raise Refused(f"'the {words[-1].text}' would be the subject itself: say 'itself', or name the other one")
            return term
        if kind == "it" or kind == "they":
            if self.words[leaves(node)[0]].low in _REFLEXIVE and self.subject_now is not None:
                return self.subject_now                        # "John hits himself.": the clause's subject
            self.personal(node)
            return self.scope.pronoun()
        if kind == "something":
            return self.scope.fresh()
        if kind in ("every_obj", "no_obj", "kind_rel_obj"):
            return objects.quantified_object(self, node)
        if kind == "indefinite_obj":
            return objects.indefinite_object(self, node)
        if kind == "name_rel_obj":
            name, vp = _kids(node)
            return objects.side_relative(self, name, vp)
        if kind == "poss_obj":
            return objects.possessive(self, node)
        raise Rejected(kind)

    @staticmethod
    def object_word(word: Word) -> None:
        """A one-word object is a thing: not an adverb ("runs fast"), a verb form ("fish eat",
        "has arrived") or a time ("runs Mondays")."""
        pos = lexicon.parts_of_speech(word.text)
        if word.type == "W" and "ADV" in pos and not lexicon.is_plural_noun(word.text):
            raise Refused(f"{word.text!r} may be an adverb, not a thing")
        if word.type == "W" and (pos and not lexicon.can_be_noun(word.text)
                                 or not pos and word.low.endswith(("ed", "ing"))):
            raise Refused(f"{word.text!r} is not a thing")
        if lexicon.noun_lemma(word.text) in classes.TEMPORAL:
            raise Refused(f"{word.text!r} says when, not what")

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

    def distributive(self, vp: Node) -> None:
        """A verb phrase said of coordinated subjects holds of each only when no word of it is
        reciprocal or collective ("Bob and Alice are different / friends / meet")."""
        for i in leaves(vp):
            low = self.words[i].low
            if {low, lexicon.noun_lemma(low), lexicon.verb_lemma(low)} & classes.RECIPROCAL:
                raise Refused(f"'{low}' is said of them together, not of each")

    # -- verb phrases ------------------------------------------------------------------

    def vp(self, node: Node, subject: Arg, singular: bool, *, copula: str | None = None, base: bool = False) -> list[Atom]:
        """Conjuncts of a verb phrase about `subject`. `copula`/`base`: a question's fronted
        "is"/"does" (the first conjunct has no copula / a bare verb)."""
        outer, self.subject_now = self.subject_now, subject
        try:
            return self._vp(node, subject, singular, copula=copula, base=base)
        finally:
            self.subject_now = outer

    def _vp(self, node: Node, subject: Arg, singular: bool, *, copula: str | None, base: bool) -> list[Atom]:
        atoms: list[Atom] = []
        last: tuple[Any, ...] | None = ("cop", False) if copula else None
        if copula and (copula == "IS") != singular:
            raise Rejected("agreement")
        for i, conj in enumerate(_kids(node)):
            if conj.data == "sep":
                if any(t.type == "BUT" for t in _toks(conj)) and not (i + 1 < len(node.kids)):
                    raise Rejected("dangling but")
                continue
            new, now = self.vconj(conj, subject, singular, last, base=base and not atoms)
            if conj.data == "verb" and i and any(t.type == "COMMA" for t in _toks(node.kids[i - 1])) \
                    and lexicon.verb_lemma(self.content(_kids(conj)[0])[0].text) in classes.REPORTS:
                raise Refused("a verb of saying after a comma reports the clause before it ('Al is tall, says Bob.')")
            if any(a.neg and any(v in self.scope.existential for v in a.args) for a in new):
                raise Refused("'not … a …' is 'no …', not 'some … not'")      # "If Bob does not own a cat …"
            if any(len(a.args) == 2 and a.args[0] == a.args[1] and isinstance(a.args[0], Var) for a in new) \
                    and any(self.words[i].low in ("him", "her", "them") for i in leaves(conj)):
                raise Refused("'him', 'her', 'them' is someone other than the subject ('himself' is the subject)")
            if last is not None and last[0] == "verb" and last[3] and now[0] == "verb" and not now[3] \
                    and conj.data != "obj_cont":
                raise Refused("coordinated verbs: does the first one take the object too?")   # "chases and bites the cat"
            atoms += new
            last = now
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
                _to(self, self.w(toks[0].value), objs[0])
                pred = f"{pred}_{self.w(toks[0].value).low}"
            if word.low in classes.HAVE and objs and self.participle(objs[0]):
                raise Refused("have + participle is the perfect tense")            # "Bob has arrived"
            if kind == "verb" and objs and objects.object_gap(self, _kids(node)[0], objs[0], singular):
                raise Refused(f"'that {word.text} {self.content(objs[0])[0].text}' may be a subject and its verb "
                              f"(the ones that {word.text} {self.content(objs[0])[0].text}): an object gap")
            self.complement(word, objs if kind == "verb" else [])
            if kind == "verb" and objs and objs[0].data == "object" and lexicon.verb_lemma(word.text) in classes.DITRANSITIVE \
                    and len(self.content(objs[0])) > 1 and all(w.type == "C" for w in self.content(objs[0])):
                raise Refused(f"'{word.text} {' '.join(w.text for w in self.content(objs[0]))}': to whom, and what?")
            if not objs:
                if isinstance(subject, str) and "_" in subject and " " not in subject and not any(
                        p.isdigit() for p in subject.split("_")) and lexicon.verb_lemma(word.text) in classes.TRANSITIVE:
                    raise Refused(f"'{subject.replace('_', ' ')} {word.text}': an object put first?")   # "Al Bob likes."
                if not lexicon.parts_of_speech(word.text) and (not singular or base):
                    raise Rejected("an unknown word alone after a plural subject may be an adjective")
                return [Atom(_pred([pred]), (subject,))], ("verb", pred, False, True)
            return [Atom(_pred([pred]), (subject, self.obj(objs[0], after_verb=kind == "verb")))], ("verb", pred, False, False)
        if kind in ("neg_verb", "neg_verb_prep"):
            aux = toks[0].type
            if (aux == "DOES") != singular:
                raise Rejected("agreement")
            word = self.content(_kids(node)[0])[0]
            pred = lexicon.base_verb(word.text) if word.type == "W" else None
            if pred is None:
                raise Rejected("not a bare verb after do/does not")
            if kind == "neg_verb_prep":
                _to(self, self.w(toks[2].value), _kids(node)[1])
                pred = f"{pred}_{self.w(toks[2].value).low}"
            objs = _kids(node)[1:]
            self.complement(word, objs if kind == "neg_verb" else [])
            args = (subject, self.obj(objs[0], after_verb=kind == "neg_verb")) if objs else (subject,)
            return [Atom(_pred([pred]), args, True)], ("verb", pred, True, not objs)
        if kind == "obj_cont":
            if last is None or last[0] != "verb" or last[2] or last[3]:
                raise Rejected("an object needs its (positive, transitive) verb")
            return [Atom(last[1], (subject, self.obj(_kids(node)[0], after_verb=True)))], last
        raise Rejected(kind)

    def complement(self, verb: Word, objs: Sequence[Node]) -> None:
        """Refuse an object that may be the verb's complement: a property after a linking verb ("feels
        sick", not a thing called sick) or a second object ("calls Alice Sue", not "Alice Sue")."""
        lemma, words = lexicon.verb_lemma(verb.text), self.content(objs[0]) if objs else []
        if lemma in classes.LINKING and words and objs[0].data == "object" and words[-1].type == "W" \
                and lexicon.can_be_adjective(words[-1].text):
            raise Refused(f"'{verb.text} {words[-1].text}' may say what it is, not a thing it {verb.text}")
        if lemma in classes.OBJECT_COMPLEMENT and len(words) > 1 and objs[0].data == "object":
            raise Refused(f"'{verb.text} {' '.join(w.text for w in words)}': an object and what it is {verb.text}?")

    def participle(self, node: Node) -> bool:
        """Whether a one-word object may be a past participle ("arrived", "eaten", "blicked")."""
        words = self.content(node)
        if len(words) != 1 or words[0].type != "W":
            return False
        word = words[0].low
        pos = lexicon.parts_of_speech(word)
        if not pos:
            return word.endswith(("ed", "en"))
        return "VERB" in pos and lexicon.verb_lemma(word) != word and not lexicon.is_plural_noun(word)

    def comp(self, node: Node, subject: Arg, singular: bool, neg: bool) -> list[Atom]:
        kind = node.data
        ws = self.content(node)
        if kind == "adj":
            (w,) = ws
            if w.type != "W" and isinstance(subject, Var) and subject in self.scope.roles:
                pred, owner = self.scope.roles[subject]       # "Bob's sister is Al.": sister_of(al, bob)
                return [Atom(pred, (self.name(_kids(node)[0]), owner), neg)]
            if w.type != "W":
                raise Rejected("a capitalised word after a copula is a name")
            if why := lexicon.not_a_property(w.text):
                raise Refused(why)
            if w.low in classes.RELATIONAL and singular:
                raise Refused(f"'{w.text}' relates two things: {w.text} from what?")     # "Bob is different."
            if w.low.endswith("ing") and "ADJ" not in lexicon.parts_of_speech(w.text):
                raise Refused(f"'is {w.text}' is the progressive, not a property")    # "Bob is running"
            noun = not singular and lexicon.is_plural_noun(w.text) and lexicon.can_be_noun(w.text)
            adj = lexicon.can_be_adjective(w.text)
            if noun == adj:
                raise Rejected(f"{w.text!r}: neither or both of noun and adjective")
            if noun:
                self.scope.nouns.add(_pred([lexicon.noun_lemma(w.text)]))
                return [Atom(_pred([lexicon.noun_lemma(w.text)]), (subject,), neg)]
            return [Atom(_pred([w.text]), (subject,), neg)]
        if kind == "member":
            if not singular:
                raise Rejected("'are a …'")
            atoms = self.nominal(ws[1:], subject, singular=True)
            if neg and len(atoms) > 1:
                raise Rejected("'is not a big cat' does not say which part fails")
            return [Atom(a.pred, a.args, neg) for a in atoms]
        if kind == "member_rel":
            if not singular or neg:
                raise Rejected("'are a … who' / 'is not a … who' (which part is denied?)")
            words = [self.content(k)[0] for k in _kids(node)[:-1]]
            atoms = self.nominal(words, subject, singular=True)
            return atoms + self.vp(_kids(_kids(node)[-1])[0], subject, True)
        if kind == "poss_relation":
            name, *parts = _kids(node)
            said = [self.content(k)[0] for k in parts]
            if len(said) > 1:       # "John's good friend": good as a friend, or good and a friend?
                raise Refused(f"'{' '.join(w.text for w in said)}': an adjective before the possessed relation")
            if not singular or any(w.type != "W" for w in said) or lexicon.is_plural_noun(said[-1].text) \
                    or not lexicon.can_be_noun(said[-1].text):
                raise Rejected("a possessive relation of one thing, in lower-case nouns")
            owner = self.name(name)
            return [Atom(_pred([w.text for w in said] + ["of"]), (subject, owner), neg)]
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
            _to(self, link, _kids(node)[-1])
            if word.low.endswith("ing") and ("VERB" in lexicon.parts_of_speech(word.text)
                                             or not lexicon.parts_of_speech(word.text)):
                raise Refused(f"'is {word.text} {link.low}' is the progressive, not a relation")   # "is going to
            if link.low == "by" and word.type == "W" and self.participle(_kids(node)[0]):
                # the passive: "Mary is seen by John." is "John sees Mary."
                agent = self.obj(_kids(node)[-1])
                return [Atom(_pred([lexicon.third_person(lexicon.verb_lemma(word.text))]), (agent, subject), neg)]
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


_REFLEXIVE = frozenset({"himself", "herself", "itself", "themselves"})


def _to(meaning: Meaning, link: Word, obj: Node) -> None:
    """"to" + one lower-case word may be an infinitive ("wants to sleep"), not a place."""
    if link.low == "to" and obj.data == "object" and all(w.type == "W" for w in meaning.content(obj)):
        raise Refused(f"'to {' '.join(w.text for w in meaning.content(obj))}' may be an infinitive, not a thing")


def clauses_of(meaning: Meaning, node: Node) -> list[Atom]:
    atoms: list[Atom] = []
    for clause in _kids(node):
        if clause.data == "sep":
            continue
        subject, vp = _kids(clause)
        terms, singular = meaning.subject(subject)
        if len(terms) > 1:
            meaning.distributive(vp)
        if atoms and len(atoms[-1].args) == 2 and _gapped(meaning, vp):
            raise Refused("a verb missing after 'and' ('Bob likes cats and Al dogs.'): gapping")
        for term in terms:
            atoms += meaning.vp(vp, term, singular)
    return atoms


def _gapped(meaning: Meaning, vp: Node) -> bool:
    """Whether a clause after a two-place one is one intransitive verb that may be a plural noun:
    the object of a verb left out ("… and Al dogs.")."""
    conjs = _kids(vp)
    if len(conjs) != 1 or conjs[0].data != "verb" or len(_kids(conjs[0])) != 1:
        return False
    word = meaning.content(conjs[0])[0].text
    return lexicon.is_plural_noun(word) and "NOUN" in lexicon.parts_of_speech(word)
