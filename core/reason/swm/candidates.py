"""The constants a sentence may be about, named the way sym names them.

A model that must *choose* an argument needs a list to choose from: names ("Bob", "[Jenny]",
"James's"), definite noun phrases ("the bald eagle"), numbered things ("Box 3") and numbers,
lower-cased here so that the model never spells a constant. The lists over-generate a little
(the model picks); they never invent a word that is not in the sentence.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sym.core.memory.schema import Schema

Const = str | int

# capitalised words that start sentences or clauses but name nobody
_NOT_NAMES = frozenset("""a an the this that these those there here then if when while after before since
because although though but and or so yet nor all every each any some no none both either neither
most many few several one he she it they we you i his her its their our your my me him them us who
whom whose which what where why how is are was were be been do does did not also instead later
meanwhile however yesterday today tomorrow once finally first next last afterwards unfortunately
luckily everyone everybody someone somebody something anything nothing nobody people things
on in at of for with from to by into onto about over under between during""".split())

# words that end a "the …" noun phrase (they are not part of the thing's name)
_STOP = _NOT_NAMES | frozenset("""has have had can could will would should may might must likes
contains contain sees eats chases needs visits loves""".split())

_TOKEN = re.compile(r"\[[^\]]+\]|[A-Za-z][A-Za-z'’-]*|\d+|[,;:.!?()\"]")


def _word(token: str) -> str:
    return re.sub(r"['’]s?$", "", token)       # possessive: James's → James, Jesus' → Jesus


def _name(words: list[str]) -> str:
    return "_".join(w.lower() for w in words)


def _scan(sentence: str) -> list[tuple[Const, str, str]]:
    """(value, kind, as written) for each thing mentioned: kind "name" (capitalised or [marked]
    words, "Box 3"), "number", "phrase" (a definite noun phrase or its head), "word" (a bare noun,
    only when fewer than two other things are found); in order of first mention, no repeats."""
    tokens = _TOKEN.findall(sentence)
    found: list[tuple[Const, str, str]] = []

    def add(value: Const, kind: str, written: str) -> None:
        if value != "" and all(value != f[0] for f in found):
            found.append((value, kind, written))

    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.startswith("["):                          # CLUTRR marks names: [Jenny]
            add(_name(tok[1:-1].split()), "name", tok[1:-1])
            i += 1
            continue
        if tok.isdigit():
            add(int(tok), "number", tok)
            i += 1
            continue
        word = _word(tok)
        if word[:1].isupper() and word.lower() not in _NOT_NAMES:
            run = [word]
            while i + 1 < len(tokens) and _word(tokens[i + 1])[:1].isupper() and \
                    _word(tokens[i + 1]).lower() not in _NOT_NAMES and _word(tokens[i]) == tokens[i]:
                i += 1
                run.append(_word(tokens[i]))
            if i + 1 < len(tokens) and tokens[i + 1].isdigit():  # Box 3 → box_3
                i += 1
                run.append(tokens[i])
            add(_name(run), "name", " ".join(run))
            i += 1
            continue
        if word.lower() == "the":
            phrase = _noun_phrase(tokens[i + 1:])
            if phrase:
                add(" ".join(phrase), "phrase", "the " + " ".join(phrase))
                if len(phrase) > 1:
                    add(phrase[-1], "phrase", phrase[-1])   # the head noun alone, in case the model wants it
        i += 1
    # bare nouns ("Bob likes jazz"): with fewer than two things found, any other content word may be one
    for tok in tokens if len(found) < 2 else ():
        low = _word(tok).lower()
        if low.isalpha() and len(low) > 2 and low not in _STOP and not low.endswith("ly") and \
                not tok[:1].isupper() and all(low != f[0] for f in found) and not any(
                    isinstance(f[0], str) and low in f[0].split(" ") for f in found):
            add(low, "word", low)
    return found


def clashing(sentence: str) -> set[Const]:
    """Constants `sentence` writes both as a name and as a description ("Bill pays the bill"): one
    constant would stand for two things, so no reading may use it."""
    tokens = _TOKEN.findall(sentence)
    named = {_word(t).lower() for i, t in enumerate(tokens) if _word(t)[:1].isupper() and i and
             _word(tokens[i - 1]).lower() != "the"} | ({_word(tokens[0]).lower()} if tokens and
                                                        _word(tokens[0])[:1].isupper() else set())
    described = {_word(tokens[i + 1]).lower() for i, t in enumerate(tokens[:-1]) if t.lower() == "the"}
    return {c for c in named & described if c not in _NOT_NAMES}


def candidates(sentence: str) -> list[Const]:
    """Constants mentioned in `sentence`, in order of first mention, without repeats."""
    return [value for value, _kind, _written in _scan(sentence)]


def names(sentence: str) -> list[tuple[str, str]]:
    """The named things of `sentence` as (constant, the words as written): "[Jenny]" →
    ("jenny", "Jenny"), "Box 3" → ("box_3", "Box 3")."""
    return [(str(value), written) for value, kind, written in _scan(sentence) if kind == "name"]


def _noun_phrase(tokens: list[str]) -> list[str]:
    phrase: list[str] = []
    for tok in tokens[:3]:
        word = _word(tok)
        low = word.lower()
        if not word.isalpha() or word[:1].isupper() or low in _STOP:
            break
        if phrase and (low.endswith("ed") or low.endswith("s") and not low.endswith("ss")):
            break                                       # "the cat eats" — a verb, not part of the name
        phrase.append(low)
        if word != tok:                                 # "the cat's" ends the phrase
            break
    return phrase


def known_objects(schema: Schema, limit: int = 40) -> list[Const]:
    """The most used constants of a memory's schema."""
    objects = sorted(schema.objects.items(), key=lambda kv: (-kv[1], str(kv[0])))
    return [name for name, _ in objects[:limit]]


def choices(sentence: str, schema: Schema | None = None, *, limit: int = 60) -> list[Const]:
    """What the model may pick as an argument for `sentence`: its own constants first, then known ones."""
    out = candidates(sentence)
    if schema is not None:
        out += [c for c in known_objects(schema) if c not in out]
    return out[:limit]


def shown(value: Const) -> str:
    """A constant as the model sees it in an enum (a string; numbers as digits)."""
    return str(value)
