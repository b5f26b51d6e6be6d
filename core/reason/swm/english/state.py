"""Containers whose contents change — things named in the Boxes form ("Box 0", "Crate 12": a
capitalised word and a number) or declared containers (`container(house).` in memory):
"Box 0 contains the glass and the letter." (the whole contents), "Box 1 is empty.", and
operations applied in order ("Put X into B.", "Remove X from B.", "Move X from A to B.", "Move
the contents of A to B.", "Empty B."). The result is a list of `Update`s plus the facts of the
new contents: `contains(box_0, glass)`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from sym.core.logic.terms import Atom, Term, Var
from sym.core.reason.swm.english import lexicon

_CONTAINS = frozenset({"contains", "contain"})
_NAME_WORD = re.compile(r"(?:[A-Z][A-Za-z'-]*|\d+)\Z")
_LOWER_WORD = re.compile(r"[a-z][a-z-]*\Z")
_NOT_IN_NP = frozenset("""the a an and or not is are of to from into in on at with by for that which who
this these those some any no all every each""".split())
OPERATION_VERBS = frozenset({"put", "place", "add", "insert", "remove", "take", "move", "transfer", "empty"})


@dataclass(frozen=True)
class Update:
    """A state change: for each binding of `match` (logic body text; "" = one empty binding)
    remove the instantiated `remove` atoms and add the instantiated `add` atoms, all at once."""

    match: str
    remove: list[str]
    add: list[str]


def _parts(words: list[str]) -> list[list[str]]:
    out: list[list[str]] = []
    cur: list[str] = []
    for w in words:
        if w.lower() in ("and", ","):
            if cur:
                out.append(cur)
            cur = []
        else:
            cur.append(w)
    if cur:
        out.append(cur)
    return out


def _np(words: list[str]) -> str | None:
    """A name ("Box 0") or a definite noun phrase ("the glass") → constant, else None."""
    if not words:
        return None
    if words[0].lower() == "the" and 1 < len(words) <= 4:
        rest = words[1:]
        ok = all(_LOWER_WORD.match(w) and w not in _NOT_IN_NP for w in rest)
        return " ".join(rest) if ok else None
    if words[0][0].isupper() and all(_NAME_WORD.match(w) for w in words) and words[0].lower() not in _NOT_IN_NP:
        return "_".join(w.lower() for w in words)
    return None


def _items(words: list[str]) -> list[str] | None:
    nps = [_np(part) for part in _parts(words)]
    names = [n for n in nps if n is not None]
    return names if nps and len(names) == len(nps) else None


def _container(words: list[str]) -> str | None:
    items = _items(words) if words else None
    return items[0] if items and len(items) == 1 else None


Containers = Callable[[str], bool] | frozenset[str]     # declared containers: a test, or their constants


def _box(words: list[str], containers: Containers) -> str | None:
    """A container whose contents a sentence may replace: the Boxes form or a declared one; any
    other thing that "contains" something just contains it (a house, its kitchen)."""
    name = _container(words)
    if name is None:
        return None
    boxes_form = len(words) >= 2 and words[0][:1].isupper() and words[-1].isdigit()
    declared = containers(name) if callable(containers) else name in containers
    return name if boxes_form or declared else None


def _has(box: Term, item: Term) -> str:
    return str(Atom("contains", (box, item)))


def words_of(sentence: str) -> list[str]:
    return sentence.strip().rstrip(".!").replace(",", " , ").split()


def operation(words: list[str], containers: Containers = frozenset()) -> list[Update] | None:
    """Put/Remove/Move items, Move the contents of A to B, Empty A."""
    low = [w.lower() for w in words]
    verb, x = low[0], Var("X")

    def _container(part: list[str]) -> str | None:
        return _box(part, containers)

    def at(*marks: str) -> int:     # 0: none (a mark is never one of the first two words)
        return next((i for i, w in enumerate(low) if w in marks and i > 1), 0)

    if verb in ("move", "transfer") and low[1:4] == ["the", "contents", "of"] and at("to", "into"):
        src, dst = _container(words[4:at("to", "into")]), _container(words[at("to", "into") + 1:])
        if src is None or dst is None:
            return None
        return [Update(_has(src, x), [_has(src, x)], [_has(dst, x)])]
    if verb == "empty":
        box = _container(words[1:])
        return [Update(_has(box, x), [_has(box, x)], [])] if box is not None else None
    if verb in ("put", "place", "add", "insert") and at("into", "in", "to"):
        items, box = _items(words[1:at("into", "in", "to")]), _container(words[at("into", "in", "to") + 1:])
        return [Update("", [], [_has(box, i) for i in items])] if items and box is not None else None
    if verb in ("remove", "take") and at("from"):
        items, box = _items(words[1:at("from")]), _container(words[at("from") + 1:])
        return [Update("", [_has(box, i) for i in items], [])] if items and box is not None else None
    if verb in ("move", "transfer") and at("from") and (at("to", "into") or 0) > at("from"):
        src, dst = _container(words[at("from") + 1:at("to", "into")]), _container(words[at("to", "into") + 1:])
        items = _items(words[1:at("from")])
        if not items or src is None or dst is None:
            return None  # each item moves only if it is where the sentence says
        return [Update(_has(src, i), [_has(src, i)], [_has(dst, i)]) for i in items]
    return None


def state(words: list[str], containers: Containers = frozenset()) -> tuple[list[str], list[Update]] | None:
    """BOX contains ITEMS / contains nothing / is empty: the whole contents of BOX."""
    low = [w.lower() for w in words]
    at = next((i for i, w in enumerate(low) if w in _CONTAINS), None)
    if at is not None:
        box, items = _box(words[:at], containers), [] if low[at + 1:] == ["nothing"] else _items(words[at + 1:])
    elif low[-2:] in (["is", "empty"], ["are", "empty"]):
        box, items = _box(words[:-2], containers), []
    else:
        return None
    if box is None or items is None:
        return None
    kind = _kind_of(box)
    stated = [f"{_has(box, i)}." for i in items] + ([f"{kind}({box})."] if kind else [])
    return stated, [Update(_has(box, Var("X")), [_has(box, Var("X"))], [])]


def _kind_of(const: str) -> str | None:
    """A name made of a noun and a numeral ("Box 1", "Drawer 3") names one of that noun's kind:
    `box_1` is a box, so "Which box contains the pen?" finds it."""
    m = re.fullmatch(r"([a-z]+)_[0-9]+", const)
    return m.group(1) if m and lexicon.can_be_noun(m.group(1)) else None


def container(words: list[str]) -> str | None:
    return _container(words)


def has(box: Term, item: Term) -> str:
    return _has(box, item)
