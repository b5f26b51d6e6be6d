"""Relations between named things, chosen pair by pair: the model fills a blank, it writes nothing.

For a story about named people or things, sym lists every ordered pair of names that meet in a
sentence ("Harold ___ Nicole", "Nicole ___ Harold") and the memory's two-place relations as
phrases taken from their templates ("is the grandfather of"). The model answers each blank with
one phrase from that list, or "none": an enum per question (constrained output where the server
honours it, checked here again). sym decides the names, the order of the arguments and the
predicate; the model's only freedom is which listed phrase, if any, makes the statement true.
Asking both directions lets the model state a converse ("her son Tarn" → Tarn is the son of
her, and she is the mother of Tarn) that the words of the story leave implicit; a sentence's
facts, converses included, are kept only when extraction's independent yes/no check agrees.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sym.core.logic.terms import Atom
from sym.core.reason.swm import prompts
from sym.core.reason.swm.candidates import names
from sym.core.reason.swm.choice import Invalid
from sym.core.reason.swm.english import lexicon
from sym.core.reason.swm.replies import Tally, parse_reply

if TYPE_CHECKING:
    from sym.core.llm import Message
    from sym.core.reason.swm.lockstep import Chat

NONE = "none"
MAX_QUESTIONS = 40          # ordered pairs in one call (a bigger story takes several calls)
MAX_NAMES = 6               # names of one sentence that are paired (more: the first six)
_PRONOUN = re.compile(r"\b(he|she|his|her|hers|him|they|them|their)\b", re.I)
_TEMPLATE = re.compile(r"\{0\} ([a-z][a-z '\-]*[a-z]) \{1\}")


@dataclass(frozen=True)
class Relation:
    pred: str           # daughter_of
    phrase: str         # is the daughter of

    @property
    def word(self) -> str:
        """The relation noun of "is the R of" ("daughter"), or "" for other phrases ("likes")."""
        m = re.fullmatch(r"is the (.+) of", self.phrase)
        return m.group(1) if m else ""


def possessive(menu: list[Relation]) -> bool:
    """Questions read "A is B's ___" (answered with a relation noun) when every relation is a noun."""
    return bool(menu) and all(r.word for r in menu)


def options(menu: list[Relation]) -> list[str]:
    return [r.word if possessive(menu) else r.phrase for r in menu] + [NONE]


@dataclass
class Question:
    first: str          # constant: harold
    second: str
    shown: tuple[str, str]              # as written: Harold, Nicole
    sentence: int                       # where the two first meet
    context: str                        # the sentence(s) shown with the question

    def key(self, menu: list[Relation]) -> str:
        a, b = self.shown
        return f"{a} is {b}'s ___" if possessive(menu) else f"{a} ___ {b}"


@dataclass
class Chosen:
    facts: dict[int, list[Atom]] = field(default_factory=dict)     # sentence index → facts
    asked: set[int] = field(default_factory=set)                   # sentences some question came from
    worded: set[Atom] = field(default_factory=set)                 # facts the words state ("his son Tarn"), no choice
    problem: str = ""


def relations(predicates: dict[str, tuple[int, ...]], templates: dict[str, str], limit: int = 60) -> list[Relation]:
    """The two-place predicates whose template reads "{0} PHRASE {1}" (or `r_of` without one),
    as phrases a model can choose; a phrase shared by two predicates is left out (ambiguous)."""
    found: dict[str, list[str]] = {}
    for name in sorted(predicates):
        if 2 not in predicates[name]:
            continue
        template = templates.get(f"{name}/2", "")
        if not template and name.endswith("_of") and len(name) > 3:
            template = "{0} is the " + name.removesuffix("_of").replace("_", " ") + " of {1}"
        m = _TEMPLATE.fullmatch(template.strip())
        if m:
            found.setdefault(" ".join(m.group(1).split()), []).append(name)
    return [Relation(preds[0], phrase) for phrase, preds in found.items() if len(preds) == 1][:limit]


def _is_name(written: str, sentence: str, elsewhere: set[str]) -> bool:
    """A capitalised word that opens a sentence may be an ordinary word ("Put", "Rose"): it is a
    name when the lexicon does not know it, or when the story writes it capitalised elsewhere."""
    opens = sentence.lstrip(" [\"'").startswith(written)
    known = any(lexicon.parts_of_speech(w) for w in written.split())
    return not opens or not known or written in elsewhere


def questions(sentences: list[str], *, neighbours: bool = True) -> list[Question]:
    """Ordered pairs of names that meet in a sentence; then, with `neighbours`, those of names in
    neighbouring sentences, else only where a sentence with one name has a pronoun that may stand
    for a name of the sentence before (such pairs show both sentences)."""
    found = [names(s) for s in sentences]
    elsewhere = {written for s, ns in zip(sentences, found) for _c, written in ns
                 if not s.lstrip(" [\"'").startswith(written)}
    people = [[(c, w) for c, w in ns if _is_name(w, s, elsewhere)][:MAX_NAMES] for s, ns in zip(sentences, found)]
    out: list[Question] = []
    seen: set[tuple[str, str]] = set()

    def ask(a: tuple[str, str], b: tuple[str, str], at: int, context: str) -> None:
        if a[0] != b[0] and (a[0], b[0]) not in seen:
            seen.add((a[0], b[0]))
            out.append(Question(a[0], b[0], (a[1], b[1]), at, context))

    for at, (sentence, here) in enumerate(zip(sentences, people)):
        for a in here:
            for b in here:
                ask(a, b, at, sentence)
    for at in range(1, len(sentences)):
        if not neighbours and not (len(people[at]) == 1 and _PRONOUN.search(sentences[at])):
            continue
        context = f"{sentences[at - 1]} {sentences[at]}"
        for a in people[at - 1]:
            for b in people[at]:
                ask(a, b, at, context)
                ask(b, a, at, context)
    return out


def schema(batch: list[Question], menu: list[Relation]) -> dict[str, Any]:
    """One enum-valued field per question, in order, keyed by the question's number and words."""
    props = {f"{i}. {q.key(menu)}": {"type": "string", "enum": options(menu)} for i, q in enumerate(batch, 1)}
    return {"type": "object", "properties": props, "required": list(props)}


def _norm(text: object) -> str:
    return " ".join(re.sub(r"[^a-z' \-]", " ", str(text).lower()).split())


def _phrase(value: object, menu: list[Relation]) -> Relation | None | str:
    """The relation a reply value names: an exact phrase, or the one phrase whose relation word
    it is ("mother" → "is the mother of"); None for "none"; the value itself when it names none."""
    text = _norm(value)
    if text in ("", NONE, "neither", "unknown", "not related", "no relation", "n a"):
        return None
    for r in menu:
        if text in (r.phrase, r.word):
            return r
    core = re.sub(r"^(is |are )?(the |a |an )?", "", text)
    core = re.sub(r" of$", "", core)
    hits = [r for r in menu if re.sub(r"^(is )?(the |a |an )?", "", r.phrase).removesuffix(" of") == core]
    return hits[0] if len(hits) == 1 else str(value)


def _values(data: object, keys: list[str]) -> dict[int, object]:
    """Question index → the reply's value, found by the question's key, its words or its number."""
    if not isinstance(data, dict):
        raise Invalid("answer with one JSON object: each question as the key, your choice as the value")
    by_number: dict[int, Any] = {}
    for key, value in data.items():
        m = re.match(r"\s*(\d+)", str(key))
        if m:
            by_number.setdefault(int(m.group(1)), value)
    out = {}
    for i, key in enumerate(keys, 1):
        value = data.get(f"{i}. {key}", data.get(key, by_number.get(i)))
        if value is not None:
            out[i - 1] = value
    return out


def read(data: dict[str, Any], batch: list[Question], menu: list[Relation]) -> tuple[dict[int, Atom | None], list[str]]:
    """Question index → the fact chosen (None for "none"), and what could not be used."""
    got: dict[int, Atom | None] = {}
    bad: list[str] = []
    for i, value in _values(data, [q.key(menu) for q in batch]).items():
        chosen = _phrase(value, menu)
        if isinstance(chosen, str):
            bad.append(f"{i + 1}. {batch[i].key(menu)}: {value!r} is not in the list")
        else:
            got[i] = None if chosen is None else Atom(chosen.pred, (batch[i].first, batch[i].second))
    if not got:
        raise Invalid("no question was answered with a phrase from the list" + (f" ({bad[0]})" if bad else ""))
    return got, bad


# -- the two steps for relation nouns ("A is B's mother") ---------------------------------

_WORD = re.compile(r"\[[^\]]+\]|[A-Za-z][A-Za-z'’-]*|\S")
_POSSESSIVE = frozenset("his her their its our my your".split())
_OWNS = ("'s", "’s", "s'")


def _noun(word: str) -> bool:
    return "NOUN" in lexicon.parts_of_speech(word) or word.endswith("-in-law")


def relation_words(sentence: str, menu: list[Relation]) -> list[tuple[str, int]]:
    """Relation nouns a sentence uses, with their token positions: a noun after a possessive
    ("her husband Louis", "Nicole's grandfather", "his younger brother") and the memory's own
    relation words wherever they occur — singular, in order of mention."""
    tokens = _WORD.findall(sentence)
    known = {r.word for r in menu if r.word}
    out: list[tuple[str, int]] = []
    for i, tok in enumerate(tokens):
        low = tok.lower()
        if not low.replace("-", "").isalpha():
            continue
        lemma = low if low.endswith("-in-law") else lexicon.noun_lemma(low)
        prev = tokens[i - 1].lower() if i else ""
        owned = prev in _POSSESSIVE or prev.endswith(_OWNS) or (
            i >= 2 and (tokens[i - 2].lower() in _POSSESSIVE or tokens[i - 2].endswith(_OWNS))
            and lexicon.can_be_adjective(prev) and not _noun(prev))
        if (owned and _noun(low)) or lemma in known:
            out.append((lemma, i))
    return out


def _positions(tokens: list[str], people: list[tuple[str, str]]) -> dict[int, list[int]]:
    """Token index → the people (indexes) whose name's first word is written there."""
    where: dict[int, list[int]] = {}
    for k, (_c, written) in enumerate(people):
        first = written.split()[0]
        for i, tok in enumerate(tokens):
            if tok.strip("[]").startswith(first):
                where.setdefault(i, []).append(k)
    return where


def said(tokens: list[str], at: int, people: list[tuple[str, str]]) -> tuple[int, int] | None:
    """(owner, named) when the words alone say who is whose relation noun at token `at`, so no
    model need choose: "X's R Y", "X's R, Y", "Y, X's R," (an apposition closed by a comma or the
    end), with an adjective allowed before R ("X's younger brother Y"); and "his/her R Y" when
    exactly one name comes before the pronoun and it opens the text (its subject). None otherwise."""
    where = _positions(tokens, people)

    def name_at(i: int) -> int | None:
        here = where.get(i, []) if 0 <= i < len(tokens) else []
        return here[0] if len(here) == 1 and not tokens[i].endswith(_OWNS) else None

    before = at - 1
    if before >= 1 and lexicon.can_be_adjective(tokens[before].lower()) and not _noun(tokens[before].lower()):
        before -= 1                                    # "X's younger brother"
    if before < 0:
        return None
    word = tokens[before]
    if word.endswith(_OWNS) and len(where.get(before, [])) == 1:
        owner: int | None = where[before][0]
    elif word.lower() in ("his", "her"):
        earlier = {k for i in range(before) for k in where.get(i, [])}
        owner = where[0][0] if len(earlier) == 1 and len(where.get(0, [])) == 1 else None
    else:
        return None
    if owner is None:
        return None
    named = name_at(at + 1)
    if named is None and at + 2 < len(tokens) and tokens[at + 1] == ",":
        named = name_at(at + 2)
    closes = at + 1 >= len(tokens) or tokens[at + 1] in (",", ".", ";")
    if named is None and word.endswith(_OWNS) and closes and before >= 2 and tokens[before - 1] == ",":
        named = name_at(before - 2)                    # "Natasha, Francisco's daughter, …"
    return (owner, named) if named is not None and named != owner else None


def _around(tokens: list[str], at: int, people: list[tuple[str, str]]) -> list[tuple[int, int]]:
    """Which pairs of names (indexes into `people`) a relation noun at token `at` may join: its
    possessor and the name right after it ("Francisco's daughter, Natasha"), or the name after it
    and each other name when the possessor is a pronoun; every pair when the words do not show."""
    where = _positions(tokens, people)
    after = next((k for i in range(at + 1, min(at + 4, len(tokens))) for k in where.get(i, [])), None)
    owner = None
    for back in (1, 2):
        if at - back >= 0 and tokens[at - back].endswith(_OWNS) and where.get(at - back):
            owner = where[at - back][0]
            break
    if owner is not None and after is None:      # "Natasha, Francisco's daughter": the name before
        after = next((k for i in range(at - 2, max(at - 6, -1), -1) for k in where.get(i, []) if k != owner), None)
    if owner is not None and after is not None and owner != after:
        return [(owner, after)]
    if after is not None:
        return [(other, after) for other in range(len(people)) if other != after]
    return [(a, b) for a in range(len(people)) for b in range(a + 1, len(people))]


@dataclass
class Statement:
    """One candidate reading: which of two named things is the other's `word`."""

    pair: tuple[Question, Question]      # (B is A's w), (A is B's w)
    word: str
    known: int | None = None             # which reading the words themselves state (see `said`)

    def key(self) -> str:
        return f"{self.pair[0].shown[1]}, {self.pair[0].shown[0]}, {self.word}"

    def sentences(self) -> list[str]:
        return [f"{q.shown[0]} is {q.shown[1]}'s {self.word}" for q in self.pair]


def statements(sentences: list[str], menu: list[Relation]) -> list[Statement]:
    """For each relation noun of a sentence, the pairs of names it may join (its possessor and
    the name after it, when the words show them) and the two ways round each can be read; a
    sentence with one name and a pronoun is read with the names of the sentence before it."""
    asked = questions(sentences, neighbours=False)
    by_pair = {(q.first, q.second): q for q in asked}
    out: list[Statement] = []
    done: set[tuple[str, str, str]] = set()
    for at in range(len(sentences)):
        mine = [q for q in asked if q.sentence == at]
        if not mine:
            continue
        people: list[tuple[str, str]] = []
        for q in mine:
            for person in ((q.first, q.shown[0]), (q.second, q.shown[1])):
                if person not in people:
                    people.append(person)
        context = max((q.context for q in mine), key=len)
        tokens = _WORD.findall(context)
        for word, pos in relation_words(context, menu):
            stated = said(tokens, pos, people)
            for a, b in [stated] if stated else _around(tokens, pos, people):
                one, other = people[a][0], people[b][0]
                if (one, other, word) in done or (other, one, word) in done:
                    continue
                fwd, back = by_pair.get((one, other)), by_pair.get((other, one))
                if fwd is not None and back is not None:
                    done.add((one, other, word))
                    out.append(Statement((back, fwd), word, 0 if stated else None))
    return out


def _relation_for(word: str, menu: list[Relation]) -> Relation | None:
    return next((r for r in menu if r.word == word), None)


def two_steps(llm: Chat, sentences: list[str], menu: list[Relation], *, tally: Tally, purpose: str = "tell") -> Chosen:
    """Step 1: for each candidate, which way round the story states it (or neither). Step 2: for
    each statement chosen, the word for the other direction ("so Zell is Tarn's ___"). Facts are
    kept when their word is one of the memory's relations."""

    out = Chosen()
    every = statements(sentences, menu)
    out.asked = {st.pair[0].sentence for st in every}
    story = " ".join(sentences)
    # what the words state needs no question; the model chooses the way round for the rest
    stated: list[tuple[Question, str, bool]] = [(st.pair[st.known], st.word, True)   # True: the words state it
                                                for st in every if st.known is not None]
    found = [st for st in every if st.known is None][:MAX_QUESTIONS]
    keys = [st.key() for st in found]
    shapes: list[dict[str, Any]] = [{"type": "string", "enum": [*st.sentences(), "neither"]} for st in found]
    lines = [f"{k}: {' | '.join([*st.sentences(), 'neither'])}" for k, st in zip(keys, found)]
    replies = _ask(llm, prompts.which_messages(story, lines), keys, shapes, tally, purpose, out) if found else {}
    for i, value in replies.items():
        text = " ".join(str(value).split())
        for q, said in zip(found[i].pair, found[i].sentences()):
            if text.lower() == said.lower():
                stated.append((q, found[i].word, False))
    for q, word, by_words in stated:
        rel = _relation_for(word, menu)
        if rel is not None:
            fact = Atom(rel.pred, (q.first, q.second))
            out.facts.setdefault(q.sentence, []).append(fact)
            if by_words:
                out.worded.add(fact)
    if not stated:
        return out
    keys = [f"{q.shown[0]} is {q.shown[1]}'s {w}, so {q.shown[1]} is {q.shown[0]}'s ___" for q, w, _ in stated]
    shapes = [{"type": "string", "maxLength": 24}] * len(keys)
    replies = _ask(llm, prompts.converse_messages(story, keys), keys, shapes, tally, purpose + ".converse", out)
    for i, value in replies.items():
        q, said, _ = stated[i]
        word = _norm(value).removeprefix("the ")
        rel = _relation_for(word, menu)
        # the same word back ("husband" → "husband") is what a small model writes when it copies;
        # it is right only for a symmetric relation, which sym cannot tell: not taken
        if rel is not None and word != said:
            out.facts.setdefault(q.sentence, []).append(Atom(rel.pred, (q.second, q.first)))
    return out


def _ask(llm: Chat, messages: list[Message], keys: list[str], shapes: list[dict[str, Any]],
         tally: Tally, purpose: str, out: Chosen) -> dict[int, object]:
    """One call for all `keys` (a field each, shaped by `shapes`); an unusable reply is asked once more."""

    props = {f"{i}. {k}": shape for i, (k, shape) in enumerate(zip(keys, shapes), 1)}
    fmt = {"type": "object", "properties": props, "required": list(props)}
    for attempt in range(2):
        reply = llm.chat(messages, purpose=purpose if not attempt else purpose + ".repair", format=fmt,
                         options={"temperature": 0.7} if attempt else None)
        tally.calls += 1
        tally.repairs += bool(attempt)
        try:
            values = _values(parse_reply(reply.text), keys)
        except Invalid as err:
            out.problem = str(err)
            continue
        if values:
            return values
        out.problem = "the reply answered none of the questions"
    return {}


def choose(llm: Chat, sentences: list[str], menu: list[Relation], *, tally: Tally, purpose: str = "tell") -> Chosen:
    """Every question answered by the model, MAX_QUESTIONS a call; a reply that leaves some
    unanswered or off the list gets one repair call for those alone. Relation nouns go by
    `two_steps`; other phrases ("likes", "is afraid of") one blank per ordered pair."""

    if possessive(menu):
        return two_steps(llm, sentences, menu, tally=tally, purpose=purpose)
    out = Chosen()
    asked = questions(sentences)
    out.asked = {q.sentence for q in asked}
    story = " ".join(sentences)
    for start in range(0, len(asked), MAX_QUESTIONS):
        todo = asked[start:start + MAX_QUESTIONS]
        for attempt in range(2):
            messages = prompts.pair_messages(story, options(menu), [q.key(menu) for q in todo], False)
            reply = llm.chat(messages, purpose=purpose if not attempt else purpose + ".repair",
                             format=schema(todo, menu), options={"temperature": 0.7} if attempt else None)
            tally.calls += 1
            tally.repairs += bool(attempt)
            try:
                got, bad = read(parse_reply(reply.text), todo, menu)
            except Invalid as err:
                out.problem = str(err)
                continue
            for i, atom in got.items():
                if atom is not None:
                    out.facts.setdefault(todo[i].sentence, []).append(atom)
            todo = [q for i, q in enumerate(todo) if i not in got]
            out.problem = bad[0] if bad else ""
            if not todo:
                break
    return out


__all__ = ["Relation", "Question", "Chosen", "Statement", "relations", "questions", "statements",
           "relation_words", "schema", "read", "choose", "two_steps", "NONE"]
