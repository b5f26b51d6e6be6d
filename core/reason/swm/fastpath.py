"""The grammar's reading of a /tell's sentences, checked against what memory already holds: a
sentence about a declared container (`container(house).`) replaces its contents, and a constant a
sentence writes as a proper name ("Bill") is never one another sentence, or memory, wrote as a
description ("the bill"). A sentence that fails a check is left to the model (whose reading is
checked in turn), with the reason, exactly as if the grammar had refused it."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from sym.core.logic.terms import Atom
from sym.core.reason.swm import english, naming

if TYPE_CHECKING:
    from sym.core.memory.working import WorkingMemory
    from sym.core.reason.swm.english import Translation

_STATE_WORDS = ("contain", "empty", "put ", "place ", "add ", "insert ", "remove ", "take ", "move ", "transfer ")


def read(memory: WorkingMemory, sentences: list[str]) -> list[tuple[str, Translation | None, str]]:
    """(sentence, its translation or None, why not) for each sentence, in order."""
    def is_container(const: str) -> bool:
        return memory.engine.holds(Atom("container", (const,)))

    out: list[tuple[str, Translation | None, str]] = []
    seen: dict[str, tuple[bool, str]] = {}        # constant → (written as a name?, the sentence)
    kinds: dict[str, str] = {}                    # a noun an earlier sentence said of a name → that sentence

    def known(const: str) -> bool:       # a description an earlier sentence or memory holds
        if const in seen:
            return not seen[const][0]
        if const not in memory.schema.objects:
            return False
        shown = naming.written(memory, [const]).get(const)
        return shown is not None and str(shown).startswith("the ")

    for sentence in sentences:
        low = sentence.lower()
        stateful = any(w in low for w in _STATE_WORDS)
        tr = english.translate(sentence, is_container if stateful else frozenset(), known)
        if tr is None:
            out.append((sentence, None, english.why_not(sentence, known)))
            continue
        clash = _written_otherwise(memory, tr, seen) or _refers_back(tr, kinds)
        if clash:
            out.append((sentence, None, clash))
            continue
        for const, as_name in tr.written:
            seen.setdefault(const, (as_name, sentence))
        named = {const for const, as_name in tr.written if as_name}
        for clause in tr.clauses:
            m = _ONE_FACT.match(clause)
            if m and m.group(2) in named:
                kinds.setdefault(m.group(1), sentence)
        out.append((sentence, tr, ""))
    return out


_ONE_FACT = re.compile(r"([a-z][a-z0-9_]*)\(([a-z][a-z0-9_]*)\)\.$")


def _refers_back(tr: Translation, kinds: dict[str, str]) -> str:
    """Why a description may be a thing an earlier sentence named ("Mary is a woman. … the woman"):
    it would be a new constant, where the text means Mary ("" when none may)."""
    for const, as_name in sorted(tr.written):
        if not as_name and " " not in const and const in kinds:
            return f"'the {const}' may be the {const} '{kinds[const]}' names: say the name"
    return ""


def _written_otherwise(memory: WorkingMemory, tr: Translation, seen: dict[str, tuple[bool, str]]) -> str:
    """Why `tr` would join a name and a description in one constant ("" when it does not)."""
    for const, as_name in sorted(tr.written):
        if const in seen and seen[const][0] != as_name:
            return _clash(const, as_name, seen[const][1])
    known = [c for c, _ in tr.written if c not in seen and c in memory.schema.objects]
    if not known:
        return ""
    before = naming.written(memory, known)
    for const, as_name in sorted(tr.written):
        shown = before.get(const)
        if shown is not None and str(shown).startswith("the ") == as_name:
            return _clash(const, as_name, f"{shown} …")
    return ""


def _clash(const: str, as_name: bool, earlier: str) -> str:
    here, there = ("a name", "a description") if as_name else ("a description", "a name")
    return f"'{const}' is {here} here and {there} in '{earlier}': they would be one thing"
