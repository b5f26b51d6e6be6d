"""The parts tests/english_gen.py builds its sentences from: fresh invented words (`Lexicon`), the
logic a sentence must translate to (`atom`, `fact`, `rule`) and its canonical form for comparing
(`normal_clause`, `normal_clauses`, `normal_query`), and the `Item` each generator returns.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import permutations

from sym.core.logic.parser import parse_program, parse_query
from sym.core.logic.terms import Atom, Compare, Naf, Rule, Var, clause_text

X = Var("X")

# -- invented words ------------------------------------------------------------------------

_ONSETS = ["b", "bl", "br", "d", "dr", "f", "fl", "fr", "g", "gl", "gr", "k", "kl", "kr", "m", "n", "p",
           "pl", "pr", "sk", "sn", "sp", "st", "t", "tr", "v", "vr", "z", "zw"]
_VOWELS = ["a", "e", "i", "o", "u"]
_MIDDLE = ["z", "v", "k", "j", "zz", "mb", "nd", "sk"]   # odd medial consonants keep words out of English
_LATE_VOWELS = ["a", "o", "u", "oo", "ai", "ee"]
_CODAS = ["b", "d", "g", "k", "m", "n", "p", "t", "rk", "mp", "nd", "lt", "rp", "ft", "nk", "rb"]
_SIBILANT_NOUN_CODAS = ["us", "ax", "ox", "ush", "atch"]   # plural in -es
_SIBILANT_VERB_CODAS = ["ax", "ush", "atch", "ix"]         # 3rd person in -es
_ADJ_SUFFIXES = ["y", "ish", "ic", "id", "al", "ent", "ive", "ful", "oid"]
# Words that are the fragment's own (function words, class nouns, closed-class relation words),
# and endings that would make a word look inflected (past tense, gerund, comparative, adverb).
RESERVED = frozenset("""a an the is are not and but or if then it they he she him her them who whom
that which what all every each any no none some most many few thing things person people persons
one ones someone something somebody everything everyone nothing nobody do does doesn don of to in
on at from with into by for than true false unknown statement following left right north south
east west was were be been might may will would can could usually often always never""".split())
_BAD_ENDINGS = ("ed", "ing", "er", "est", "ly")


def _known_english(word: str) -> bool:
    """Whether a real English lexicon (lemminflect's, when installed) knows the word: an invented
    word must not be one, or the test would depend on what English says that word is."""
    try:
        from lemminflect import getAllLemmas
    except ImportError:
        return False
    return bool(getAllLemmas(word))


def _syllables(rng: random.Random, coda: str) -> str:
    onset = "" if rng.random() < 0.15 else rng.choice(_ONSETS)
    late = "" if coda[:1] in ("a", "e", "i", "o", "u") else rng.choice(_LATE_VOWELS)
    return onset + rng.choice(_VOWELS) + rng.choice(_MIDDLE) + late + coda


def plural(noun: str) -> str:
    """The regular plural of an invented noun (-es after a sibilant)."""
    return noun + ("es" if noun.endswith(("s", "x", "z", "sh", "ch")) else "s")


third_person = plural  # the regular rule is the same for verbs


@dataclass(frozen=True)
class Noun:
    sg: str

    @property
    def pl(self) -> str:
        return plural(self.sg)

    @property
    def article(self) -> str:
        return "an" if self.sg[0] in "aeiou" else "a"


@dataclass(frozen=True)
class Verb:
    base: str

    @property
    def s(self) -> str:
        return third_person(self.base)


@dataclass(frozen=True)
class NP:
    """A noun phrase naming an individual: its text mid-sentence and its constant."""

    text: str
    const: str

    @property
    def start(self) -> str:
        return self.text[0].upper() + self.text[1:]


class Lexicon:
    """Fresh invented words for one sentence; no word is handed out twice."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.used: set[str] = set()

    def _fresh(self, make) -> str:
        while True:
            word = make()
            if (word not in self.used and word not in RESERVED and not word.endswith(_BAD_ENDINGS)
                    and not _known_english(word)):
                self.used.add(word)
                return word

    def noun(self) -> Noun:
        codas = _SIBILANT_NOUN_CODAS if self.rng.random() < 0.25 else _CODAS
        return Noun(self._fresh(lambda: _syllables(self.rng, self.rng.choice(codas))))

    def verb(self) -> Verb:
        codas = _SIBILANT_VERB_CODAS if self.rng.random() < 0.25 else _CODAS
        return Verb(self._fresh(lambda: _syllables(self.rng, self.rng.choice(codas))))

    def adj(self) -> str:
        def make():
            onset = "" if self.rng.random() < 0.15 else self.rng.choice(_ONSETS)
            return onset + self.rng.choice(_VOWELS) + self.rng.choice(_MIDDLE) + self.rng.choice(_ADJ_SUFFIXES)
        return self._fresh(make)

    def name_word(self) -> str:
        coda = "" if self.rng.random() < 0.5 else self.rng.choice(_CODAS)
        return self._fresh(lambda: _syllables(self.rng, coda)).capitalize()

    def name(self, plain: bool = False) -> NP:
        """A proper name: one capitalised word, or "Name 3" / "Name Other" (joined by `_`)."""
        first = self.name_word()
        roll = 1.0 if plain else self.rng.random()
        if roll < 0.15:
            n = self.rng.randint(0, 9)
            return NP(f"{first} {n}", f"{first.lower()}_{n}")
        if roll < 0.25:
            second = self.name_word()
            return NP(f"{first} {second}", f"{first.lower()}_{second.lower()}")
        return NP(first, first.lower())

    def definite(self) -> NP:
        """"the glorp" → glorp; "the wuzzy glorp" → 'wuzzy glorp'."""
        noun = self.noun().sg
        if self.rng.random() < 0.35:
            adj = self.adj()
            return NP(f"the {adj} {noun}", f"{adj} {noun}")
        return NP(f"the {noun}", noun)

    def individual(self) -> NP:
        return self.name() if self.rng.random() < 0.55 else self.definite()

    def prep(self) -> str:
        return self.rng.choice(["in", "on", "at", "with", "from", "near"])


# -- expected logic ------------------------------------------------------------------------

def atom(pred: str, *args, neg: bool = False) -> Atom:
    return Atom(pred, tuple(args), neg)


def fact(pred: str, *args, neg: bool = False) -> str:
    return clause_text(atom(pred, *args, neg=neg))


def rule(head: Atom, *body: Atom) -> str:
    return clause_text(Rule(head, tuple(body)))


def _rename(lit, names: dict):
    def term(t):
        if isinstance(t, Var):
            names.setdefault(t, Var(f"V{len(names)}"))
            return names[t]
        return t
    if isinstance(lit, Atom):
        return Atom(lit.pred, tuple(term(a) for a in lit.args), lit.neg)
    if isinstance(lit, Naf):
        return Naf(_rename(lit.atom, names))
    return Compare(lit.op, term(lit.left), term(lit.right))


def _canonical(head, body: tuple) -> str:
    """The least text over body orders, variables named by first appearance: equal exactly
    when two clauses differ only in variable names and body order."""
    orders = permutations(body) if len(body) <= 6 else [sorted(body, key=str)]
    best = None
    for order in orders:
        names: dict = {}
        new_head = _rename(head, names) if head is not None else None
        text = ", ".join(str(_rename(lit, names)) for lit in order)
        text = text if new_head is None else f"{new_head} :- {text}"
        if best is None or text < best:
            best = text
    return best


def normal_clause(text: str) -> list[str]:
    """Each clause of a logic text in canonical form (raises the parser's error on bad logic)."""
    out = []
    for located in parse_program(text):
        clause = located.clause
        if isinstance(clause, Atom):
            out.append(str(clause))
        elif isinstance(clause, Rule):
            out.append(_canonical(clause.head, clause.body) if clause.body else str(clause.head))
        else:
            out.append("?- " + _canonical(None, clause.body))
    return out


def normal_clauses(texts) -> list[str]:
    """A list of clause texts as a sorted list of canonical forms (order of clauses is free)."""
    return sorted(c for text in texts for c in normal_clause(text))


def normal_query(text: str) -> str:
    return _canonical(None, parse_query(text).body)


# -- items ---------------------------------------------------------------------------------

@dataclass
class Item:
    category: str
    sentence: str
    clauses: list[str] | None = None          # statements: what translate must give
    goal: tuple[str, str] | None = None        # questions: (kind, query)
    tags: list[str] = field(default_factory=list)
    # trust categories only (tags[0] says what is allowed: see `breach`)
    kind: str | None = None                    # the Translation kind the form must have
    updates: list[tuple[str, list[str], list[str]]] | None = None   # (match, remove, add) of each Update
    avoid: list[str] = field(default_factory=list)   # words no argument of any clause may contain
    parts: list[str] | None = None             # texts to split: the sentences they hold


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]

