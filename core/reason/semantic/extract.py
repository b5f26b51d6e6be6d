"""Facts of given predicates extracted from a text, chunk by chunk: the model picks a predicate
from an enum and writes one short string per argument; sym turns each string into a constant,
prints the fact and reads it back with the logic parser. Nothing the model writes is parsed as
logic: a fact that fails is rejected and named.

A chunk whose reply breaks the constraint gets one repair with the exact problems; after that
the valid facts of its best reply are kept and the rest named (the fallback). Facts from all
chunks are merged (exact and near-duplicates by embedding) before anything is stored, so a
failed call changes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantic import BaseModel, JsonValue

from sym.core.errors import ParseError, UserError
from sym.core.logic.terms import Atom, format_const
from sym.core.reason.semantic import prompts
from sym.core.reason.semantic.chunks import CHUNK_CHARS, each_chunk, split
from sym.core.reason.semantic.cluster import Merged, merge_facts
from sym.core.reason.semantic.ops import choose

if TYPE_CHECKING:

    from sym.core.memory.embedders import Embedder
    from sym.core.memory.working import AddOutcome, WorkingMemory
    from sym.core.run import Run

MAX_PREDICATES = 12
MAX_ARITY = 4
_SPEC = re.compile(r"([a-z][a-z0-9_]{0,39})/([0-9]+)\Z")
_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?\Z")
_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.I)


@dataclass(frozen=True)
class Spec:
    name: str
    arity: int

    @property
    def key(self) -> str:
        return f"{self.name}/{self.arity}"


def parse_specs(text: str) -> list[Spec]:
    """`born_in/2,person/1` → specs; a UserError names the first one that is not NAME/N."""
    specs: list[Spec] = []
    for raw in re.split(r"[,\s]+", text.strip()):
        if not raw:
            continue
        m = _SPEC.match(raw)
        if m is None:
            raise UserError(f"bad predicate {raw!r}: write NAME/N, e.g. born_in/2",
                            hint="names are lower-case letters, digits and _, starting with a letter")
        spec = Spec(m.group(1), int(m.group(2)))
        if not 1 <= spec.arity <= MAX_ARITY:
            raise UserError(f"bad predicate {raw!r}: it may take 1 to {MAX_ARITY} arguments")
        if spec.name in ("not", "false"):
            raise UserError(f"bad predicate {raw!r}: {spec.name} is a reserved word")
        if spec not in specs:
            specs.append(spec)
    if not specs:
        raise UserError("--into needs predicates", hint="/extract TEXT --into born_in/2,person/1")
    if len(specs) > MAX_PREDICATES:
        raise UserError(f"at most {MAX_PREDICATES} predicates, not {len(specs)}")
    return specs


class Fact(BaseModel):
    predicate: str
    args: list[JsonValue]


class Facts(BaseModel):
    facts: list[Fact]


@dataclass(frozen=True)
class Rejected:
    """A fact the model gave that sym did not accept, and why."""

    shown: str
    reason: str
    chunk: int = 0


def constant(value: object) -> str | int | float:
    """A model's argument as a logic constant: numbers as numbers; text trimmed of spaces, end
    punctuation and a leading article, lower-cased; a proper name's words joined by `_`
    ("Ada Lovelace" → ada_lovelace) and a phrase's kept apart ("red barn" → 'red barn').
    Raises ValueError naming what is wrong."""
    if isinstance(value, bool) or value is None or isinstance(value, (list, dict)):
        raise ValueError(f"argument {value!r} is not a name or a number")
    if isinstance(value, (int, float)):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"argument {value!r} is not a number")
        return int(value) if float(value).is_integer() else float(value)
    if any(ord(ch) < 32 and not ch.isspace() for ch in str(value)):
        raise ValueError(f"argument {str(value)[:40]!r} holds control characters")
    text = " ".join(str(value).split()).strip(" .,;:!?\"'")
    text = _ARTICLE.sub("", text) or text
    if not text:
        raise ValueError("an argument is empty")
    if len(text) > prompts.ARG_CHARS:
        raise ValueError(f"argument {text[:40]!r}… is longer than {prompts.ARG_CHARS} characters")
    if _NUMBER.match(text):
        return int(text) if "." not in text else float(text)
    words = text.split()
    if all(w[:1].isupper() for w in words if w[:1].isalpha()) and len(words) > 1:
        return "_".join(w.lower() for w in words)
    return text.lower()


def build(entry: Fact, specs: list[Spec]) -> Atom:
    """The fact an entry stands for, printed and read back by the logic parser; ValueError
    (with a reason the model can act on) when it is not one of the specs' facts."""
    from sym.core.logic.parser import check_clause, parse_atom

    name = entry.predicate.strip()
    arities = [s.arity for s in specs if s.name == name]
    if not arities:
        raise ValueError(f"predicate {name!r} is not one of {', '.join(s.key for s in specs)}")
    if len(entry.args) not in arities:
        raise ValueError(f"{name} takes {' or '.join(map(str, arities))} argument(s), not {len(entry.args)}")
    args = tuple(constant(a) for a in entry.args)
    text = f"{name}({', '.join(format_const(a) for a in args)})"
    try:
        atom = parse_atom(text, allow_variables=False)
        check_clause(atom)
    except ParseError as err:
        raise ValueError(f"{text} is not a fact: {err.message}") from None
    if atom != Atom(name, args):
        raise ValueError(f"{text} does not read back as written")
    return atom


def shown(entry: Fact) -> str:
    args = ", ".join(repr(a) if isinstance(a, str) else str(a) for a in entry.args)
    return f"{entry.predicate}({args})"[:160]


@dataclass
class ChunkFacts:
    facts: list[Atom] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    calls: int = 0
    fallback: bool = False      # the reply broke the constraint after its repair: valid facts kept
    problem: str = ""           # the reply could not be read at all (no facts from this chunk)


@dataclass
class Extraction:
    specs: list[Spec]
    facts: list[Atom]                   # merged, in first-seen order
    chunks: list[ChunkFacts]
    exact: int = 0                      # exact duplicates across chunks dropped
    merged: list[Merged] = field(default_factory=list)

    @property
    def rejected(self) -> list[Rejected]:
        return [r for c in self.chunks for r in c.rejected]

    @property
    def calls(self) -> int:
        return sum(c.calls for c in self.chunks)

    @property
    def unread(self) -> list[int]:
        """Chunks whose reply could not be read at all."""
        return [n for n, c in enumerate(self.chunks) if c.problem]


def read(entries: list[Fact], specs: list[Spec], chunk: int = 0) -> tuple[list[Atom], list[Rejected]]:
    facts, rejected = [], []
    for entry in entries:
        try:
            facts.append(build(entry, specs))
        except ValueError as err:
            rejected.append(Rejected(shown(entry), str(err), chunk))
    return facts, rejected


def extract(text: str, specs: list[Spec], run: Run, *, embedder: Embedder, templates: dict[str, str] | None = None,
            max_chars: int = CHUNK_CHARS) -> Extraction:
    """Facts of SPECS in TEXT, chunk by chunk; merged and de-duplicated. Writes nothing."""
    chunks = split(text, max_chars)
    if not chunks:
        raise UserError("nothing to extract from")
    fmt = prompts.facts_format(specs)

    def one(n: int, chunk: str) -> ChunkFacts:
        best: list[tuple[list[Atom], list[Rejected]]] = []

        def check(value: Facts) -> list[str]:
            facts, rejected = read(value.facts, specs, n)
            best.append((facts, rejected))
            problems = [f"{r.shown}: {r.reason}" for r in rejected]
            if len(value.facts) > prompts.MAX_FACTS:
                problems.append(f"give at most {prompts.MAX_FACTS} facts")
            return problems

        c = choose(run.llm, prompts.extract_messages(specs, templates or {}, chunk, n, len(chunks)), Facts, fmt, check,
                   purpose="extract")
        if c.value is not None:
            return ChunkFacts(*best[-1], calls=c.calls)
        if best:       # readable, but some facts broke the constraint even after the repair
            facts, rejected = max(best, key=lambda fr: len(fr[0]))
            return ChunkFacts(facts[:prompts.MAX_FACTS], rejected, c.calls, fallback=True)
        return ChunkFacts(calls=c.calls, problem=c.problems[0] if c.problems else "the reply could not be read")

    results = each_chunk(chunks, one, run, task="extract")
    kept, exact, merged = merge_facts([f for r in results for f in r.facts], embedder)
    return Extraction(specs, kept, results, exact, merged)


def store(memory: WorkingMemory, extraction: Extraction, *, source: str, merge: str = "ask") -> AddOutcome:
    """The extracted facts added to memory in one all-or-nothing batch → AddOutcome."""
    return memory.add([(f, source) for f in extraction.facts], nl="", merge=merge)
