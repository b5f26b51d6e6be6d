"""One sentence → what it means (`Translation`), or None when the sentence is outside the
controlled language or has more than one meaning. Containers and their operations (state.py)
come first; everything else goes through the grammar (parse.py → semantics.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sym.core.logic.terms import Atom, Rule, Var
from sym.core.reason.swm.english import classes, counts, lexicon, measures, parse, render, semantics, state, surface
from sym.core.reason.swm.english.lexicon import Word
from sym.core.reason.swm.english.scope import KNOWN_DESCRIPTIONS, Nouns
from sym.core.reason.swm.english.semantics import Meaning, Refused, Rejected, Scope, Written, _kids, clauses_of, gnoun
from sym.core.reason.swm.english.state import Update

if TYPE_CHECKING:
    from sym.core.reason.swm.english.parse import Node


@dataclass(frozen=True)
class Translation:
    """What one sentence means. A consumer applies `updates` first (in order), then adds
    `clauses`; for a state sentence the updates clear the container and the clauses fill it."""

    sentence: str
    clauses: list[str]          # logic text, each parseable by core.logic.parser.parse_program
    updates: list[Update] = field(default_factory=list)
    kind: str = "fact"          # fact | rule | state | operation
    nl: str = ""
    # how the sentence wrote its constants: (constant, True) for a proper name ("Bill"), False for
    # a description ("the bill") — the two must never meet in one constant across sentences either
    written: frozenset[tuple[str, bool]] = frozenset()
    paraphrase: str = ""        # the clauses in canonical controlled English ("read as: …"), which read back to them


def meanings(sentence: str) -> set[tuple[str, tuple[str, ...]]]:
    """Every distinct (kind, clauses) the grammar's readings give the sentence."""
    return {(kind, clauses) for kind, clauses, *_ in readings(sentence)}


def readings(sentence: str) -> set[tuple[str, tuple[str, ...], Written, Nouns]]:
    """Every distinct (kind, clauses, how constants were written, the one-place predicates read
    from nouns) of the sentence's readings."""
    words = lexicon.tokens(sentence)
    if words is None or words[-1].type == "QMARK":
        return set()
    found = set()
    for variant in contractions(words):
        for tree in parse.readings(variant):
            try:
                kind, clauses, written, nouns = statement(variant, tree)
            except semantics.Refused:
                return set()        # a reading the sentence has, which logic would misstate: not another one instead
            except semantics.Rejected:
                continue
            found.add((kind, tuple(clauses), written, nouns))
    return found


def contractions(words: list[Word]) -> list[list[Word]]:
    """The sentence with each "'s" read as a possessive and as "is" ("Bob's tall." is "Bob is tall.",
    "Bob's sister is Al." a possessive): every reading of every variant counts, so a sentence both
    read is refused. An "'s" before a participle may be "has" ("Bob's eaten."): none."""
    at = [i for i, w in enumerate(words) if w.type == "POSS"]
    if not at:
        return [words]
    if len(at) > 1 or any(i + 1 < len(words) and _participle(words[i + 1]) for i in at):
        return []
    (i,) = at
    return [words, [*words[:i], Word("is", "IS"), *words[i + 1:]]]


def _participle(word: Word) -> bool:
    if word.type != "W":
        return False
    pos = lexicon.parts_of_speech(word.text)
    if not pos:
        return word.low.endswith(("ed", "en"))
    return "VERB" in pos and lexicon.verb_lemma(word.text) != word.low and not lexicon.is_plural_noun(word.text) \
        and word.low.endswith(("ed", "en", "t", "n", "ne", "ung", "um", "ught"))


def translate(sentence: str, containers: state.Containers = frozenset(),
              known: Callable[[str], bool] | None = None) -> Translation | None:
    """One sentence → its Translation, or None (not understood, or ambiguous). `containers`:
    the things declared containers (besides the Boxes form "Box 0"), whose contents a sentence
    replaces: their constants, or a test of a constant. `known`: whether a description is a thing
    memory or an earlier sentence holds already (a rule of "a cat" may then name "the box")."""
    token = KNOWN_DESCRIPTIONS.set(known)
    try:
        return _translate(sentence, containers)
    finally:
        KNOWN_DESCRIPTIONS.reset(token)


def _translate(sentence: str, containers: state.Containers) -> Translation | None:
    text = " ".join(sentence.split())
    if not text or text.endswith("?"):
        return None
    words = state.words_of(text)
    if words and words[0].lower() in state.OPERATION_VERBS:
        ops = state.operation(words, containers)
        return Translation(text, [], ops, "operation", text) if ops else None
    contents = state.state(words, containers) if words else None
    if contents is not None:
        return Translation(text, contents[0], contents[1], "state", text)
    plain = surface.plain(text)
    measured = measures.measure(plain, readings)
    if measured is not None:
        return Translation(text, measured, [], "fact", text)
    counted = counts.count(plain, readings, measures.subject)
    if counted is not None:
        return Translation(text, counted[0], [], "rule", text, paraphrase=counted[1])
    found = readings(plain)
    if len({(kind, clauses) for kind, clauses, *_ in found}) != 1:
        return None
    kind, clauses, _, _ = next(iter(found))
    written: Written = frozenset().union(*(w for _, _, w, _ in found))
    nouns: Nouns = frozenset().union(*(n for *_, n in found))
    if misread(clauses, written, plain, nouns) is not None or not surface.shouted_reading_ok(text, " ".join(clauses), _known):
        return None
    return Translation(text, list(clauses), [], kind, text, written, paraphrase(clauses, written, nouns))


def _known(word: str) -> bool:
    return bool(lexicon.parts_of_speech(word)) or word in lexicon.KEYWORDS or word in lexicon.PREPOSITIONS


def _said(clause: str, written: Written, nouns: Nouns = frozenset()) -> str | None:
    """One clause in canonical English, its constants written as the sentence wrote them, and its
    one-place predicates read from nouns said as nouns ("X is an animal")."""
    described = frozenset(const for const, is_name in written if not is_name)
    named = frozenset(const for const, is_name in written if is_name)
    said = render.render_clause(_BUILT.get(clause, clause), described, named, nouns)
    return said[:1].upper() + said[1:] if said else None


def paraphrase(clauses: tuple[str, ...] | list[str], written: Written = frozenset(), nouns: Nouns = frozenset()) -> str:
    """The clauses in canonical controlled English ("" where one has no English form)."""
    said = [_said(c, written, nouns) for c in clauses]
    return " ".join(s for s in said if s) if all(said) else ""


def misread(clauses: tuple[str, ...], written: Written = frozenset(),
            sentence: str = "", nouns: Nouns = frozenset()) -> str | None:
    """The paraphrase of a clause that does not read back to that clause, or None: the mechanical
    check of a reading (what sym would store, said in its own English, must mean the same). A
    paraphrase that is the `sentence` itself (but for case and spacing) reads back as it did."""
    for clause in clauses:
        said = _said(clause, written, nouns)
        if said is None or len(clauses) == 1 and _same_text(said, sentence):
            continue
        back = {c for _, cs, *_ in readings(said) for c in cs} if not said.endswith("?") else set()
        if {_canonical(c) for c in back} != {_canonical(clause)}:
            return said
    return None


def _same_text(a: str, b: str) -> bool:
    return " ".join(a.lower().split()).rstrip(".") == " ".join(b.lower().split()).rstrip(".")


def _canonical(clause: str) -> str:
    """A clause's text with its variables named by first occurrence (A, B, …)."""
    names: dict[str, str] = {}
    return re.sub(r"\b[A-Z]\w*", lambda m: names.setdefault(m.group(0), f"V{len(names)}"), clause)


def why_not(sentence: str, known: Callable[[str], bool] | None = None) -> str:
    """A short reason why `translate` gave None (for messages)."""
    token = KNOWN_DESCRIPTIONS.set(known)
    try:
        return _why_not(sentence)
    finally:
        KNOWN_DESCRIPTIONS.reset(token)


def _why_not(sentence: str) -> str:
    text = surface.plain(sentence)
    forward = surface.cataphora(text)
    if forward:
        return forward
    counting = counts.why_not(text)
    if counting:
        return counting
    words = lexicon.tokens(text)
    if words is None:
        for at, raw in enumerate(text.rstrip(".?!").split()):
            problem = classes.closed_class_problem(raw.lower().strip(",;:"), at)
            if problem:
                return problem
        return "uses words or signs outside the controlled language"
    if len(words) > parse.MAX_WORDS or sum(w.type in ("AND", "COMMA", "BUT") for w in words) > parse.MAX_JOINS:
        return f"is too long for the controlled language (at most {parse.MAX_WORDS} words, {parse.MAX_JOINS} joins)"
    n = len(meanings(text))
    if n > 1:
        return "has more than one reading"
    if n == 1:
        (_, clauses, written, nouns), *_ = readings(text)
        said = misread(clauses, written, nouns=nouns)
        if said is not None:
            return f"its reading, said back as '{said}', reads as something else"
    for tree in parse.readings(words):
        try:
            statement(words, tree)
        except semantics.Refused as err:      # a reading that fits, refused for what it would misstate
            return str(err)
        except semantics.Rejected:
            continue
    return "is not a form of the controlled language"


# -- statements: one reading → clauses ----------------------------------------------------------------------

# the clause each text was built from (by _text), so that saying it back needs no parse of its text
_BUILT: dict[str, Atom | Rule] = {}


def _built(text: str, clause: Atom | Rule) -> str:
    if len(_BUILT) > 20_000:
        _BUILT.clear()
    _BUILT[text] = clause
    return text


def _text(heads: list[Atom], body: list[Atom]) -> list[str]:
    if not body:
        if any(isinstance(a, Var) for h in heads for a in h.args):
            raise Rejected("a variable in a fact")
        return [_built(f"{h}.", h) for h in dict.fromkeys(heads)]
    bound = {a for atom in body for a in atom.args if isinstance(a, Var)}
    if any(isinstance(a, Var) and a not in bound for h in heads for a in h.args):
        raise Rejected("a head variable the body does not bind")
    conditions = tuple(dict.fromkeys(body))
    tail = ", ".join(str(b) for b in conditions)
    return [_built(f"{h} :- {tail}.", Rule(h, conditions)) for h in dict.fromkeys(heads)]


def _heads(scope: Scope, heads: list[Atom], body: list[Atom]) -> list[str]:
    """The clauses of what a sentence asserts: each head over the body, and over the restrictions
    of the quantified objects it holds ("likes(bob, X) :- cat(X)."); what non-restrictive
    relatives assert are facts of their own."""
    out = [c for head in scope.settle(heads) for c in _text([head], body + scope.restriction(head))]
    out += _text(scope.side, [])
    return list(dict.fromkeys(out))


def statement(words: list[Word], tree: Node) -> tuple[str, list[str], Written, Nouns]:
    """One reading of a statement → (kind, clause texts, how its constants were written); raises
    Rejected, or Refused for a report ("Al is tall, Bob thinks.": Bob's claim, not a fact)."""
    kind, clauses, written, nouns = _statement(words, tree)
    said = next((c for c in clauses if (m := _ONE_PLACE.match(c)) and lexicon.verb_lemma(m.group(1)) in classes.REPORTS), None)
    if said is not None:
        raise Refused(f"'{said[:-1]}' reports what someone thinks or says: the rest is their claim, not a fact")
    return kind, clauses, written, nouns


_ONE_PLACE = re.compile(r"~?([a-z]+)\([^,()]+\)\.$")


def _statement(words: list[Word], tree: Node) -> tuple[str, list[str], Written, Nouns]:
    (node,) = _kids(tree)
    kind = node.data
    if kind == "facts":
        meaning = Meaning(words, Scope(rule=False, asserting=True))
        atoms = clauses_of(meaning, _kids(node)[0])
        meaning.scope.check_constants()
        clauses = _heads(meaning.scope, atoms, [])
        said = "rule" if any(":-" in c for c in clauses) else "fact"
        return said, clauses, meaning.scope.written(), frozenset(meaning.scope.nouns)
    if kind == "conditional":
        meaning = Meaning(words, Scope(rule=True, conditions=True))
        body_node, head_node = _kids(node)
        body = clauses_of(meaning, body_node)
        meaning.scope.rule = True
        body = meaning.scope.body + body
        meaning.scope.conditions = False
        meaning.scope.head = meaning.scope.asserting = True
        heads = clauses_of(meaning, head_node)
        meaning.scope.check_constants()
        meaning.scope.check_definites()
        return "rule", _heads(meaning.scope, heads, body), meaning.scope.written(), frozenset(meaning.scope.nouns)
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
            noun = [w for w in meaning.content(parts[0]) if w.type != "COMMA"]
            if noun[-1].type != "THING":            # "the dog" in "Dogs chase the dog": which?
                meaning.scope.indefinites.append((tuple(w.low for w in noun[:-1]), lexicon.noun_lemma(noun[-1].text), x))
            parts = parts[1:]
        meaning.scope.conditions = True
        for rel in parts:
            body += meaning.vp(_kids(rel)[0], x, singular)
        meaning.scope.conditions = False
        body += meaning.scope.body           # what indefinite objects of the relatives are ("who owns a donkey")
        if not body:
            raise Rejected("a rule about everything")
        meaning.scope.asserting = meaning.scope.head = True     # "the donkey" repeats "a donkey" here
        heads = meaning.vp(vp, x, singular)
        kind_level = [h.pred for h in heads if h.pred in classes.KIND_LEVEL]
        if kind_level:
            raise Refused(f"'{kind_level[0]}' is said of the kind, not of each one")   # "Pandas are rare"
        if quant in ("gen_no", "gen_nothing"):
            if len(heads) != 1 or heads[0].neg:
                raise Rejected("'no … is A and B' is not a strong negation of each")
            if any(meaning.scope.universal[a][0] in ("every", "no") for a in heads[0].args if a in meaning.scope.universal):
                raise Refused("'no … every / no …' says that some are not: which ones?")
            heads = [heads[0].negate()]
        meaning.scope.check_constants()
        meaning.scope.check_definites()
        return "rule", _heads(meaning.scope, heads, body), meaning.scope.written(), frozenset(meaning.scope.nouns)
    raise Rejected(kind)
