"""The vocabulary of a program written step by step (core/reason/pot/steps.py): the kinds of
things and the words the model declares (steps 1 and 2) with their schemas and checks, formulas
closed and type-checked against them, and the program sym assembles from them (JSON or SMT-LIB).
Nothing here calls a model or evaluates model text.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, Field, field_validator

from sym.core.errors import UserError
from sym.core.reason.pot.build import build
from sym.core.reason.pot.faithful import STOP, WORD, introduces, stems, unsaid
from sym.core.reason.pot.schema import RESERVED, Program
from sym.core.reason.pot.smt2_read import Smt2Program
from sym.core.reason.pot.smt2_steps import build_smt2
from sym.core.reason.pot.smt2_write import quoted

IDENT = r"^[A-Za-z_][A-Za-z0-9_]{0,39}$"
MAX_SORTS, MAX_MEMBERS, MAX_FUNCTIONS, MAX_ARGS = 6, 24, 24, 3
MAX_TEXT_WORDS = 800
VARIABLES = ("x", "y", "z")
JSON_WORDS = ("And", "Or", "Not", "Implies", "Xor", "If", "Distinct", "ForAll([", "Exists([", "True", "False")
SMT2_WORDS = ("and", "or", "not", "=>", "xor", "ite", "distinct", "forall", "exists", "true", "false", "Int", "Bool")
JSON_OPS = ("==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "(", ")", "[", "]", ",", " ", "[0-9]")
SMT2_OPS = ("<=", ">=", "=", "<", ">", "+", "-", "*", "(", ")", " ", "[0-9]")


class SortStep(BaseModel):
    name: str
    closed: bool
    members: list[str] = Field(default_factory=list)


class Kinds(BaseModel):
    sorts: list[SortStep]


class FunctionStep(BaseModel):
    name: str
    args: list[str]
    result: str
    position: bool = False


class Words(BaseModel):
    functions: list[FunctionStep]

    @field_validator("functions")
    @classmethod
    def _once(cls, functions: list[FunctionStep]) -> list[FunctionStep]:
        """A function declared again exactly as before says nothing new: kept once (a small model
        repeats its list; sending that back costs a repair). The same name declared otherwise stays,
        and check_words names it."""
        kept: list[FunctionStep] = []
        for f in functions:
            if f not in kept:
                kept.append(f)
        return kept


class Lines(BaseModel):
    lines: list[dict[str, Any]]      # {"text", "form", …}: core/reason/pot/forms.py


# -- schemas ---------------------------------------------------------------------------------

def _name(extra: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"type": "string", "pattern": IDENT, **(extra or {})}


def kinds_schema() -> dict[str, Any]:
    sort = {"type": "object", "properties": {
        "name": _name(), "closed": {"type": "boolean"},
        "members": {"type": "array", "maxItems": MAX_MEMBERS, "items": _name()}},
        "required": ["name", "closed", "members"]}
    return {"type": "object", "properties": {"sorts": {"type": "array", "minItems": 1, "maxItems": MAX_SORTS,
                                                       "items": sort}}, "required": ["sorts"]}


def words_schema(sorts: list[str], text: str = "") -> dict[str, Any]:
    """Step 2's schema. Given the `text`, a property or relation (result Bool, chosen first) is
    named only with the text's own words joined by "_" (`lunch_at_home`): the model chooses its
    words rather than writing a name, so neither an example's name (`wug`) nor a word the text
    does not use can be decoded. A quantity's name (result Int or a sort) may also use a word
    for a number the text need not say (QUANTITY_WORDS: price, place, age, …)."""
    args = {"type": "array", "maxItems": MAX_ARGS, "items": {"enum": [*sorts, "Int"]}}

    def fn(result: dict[str, Any], name: dict[str, Any]) -> dict[str, Any]:
        return {"type": "object", "properties": {"result": result, "name": name, "args": args,
                                                 "position": {"type": "boolean"}},
                "required": ["result", "name", "args", "position"]}
    vocabulary = text_words(text)
    if 0 < len(vocabulary) <= MAX_TEXT_WORDS:        # a longer text's grammar would be slow to build and decode
        item: dict[str, Any] = {"anyOf": [
            fn({"const": "Bool"}, {"type": "string", "pattern": _name_pattern(vocabulary)}),
            fn({"enum": ["Int", *sorts]}, {"type": "string", "pattern": _name_pattern([*vocabulary, *QUANTITY_WORDS])})]}
    else:
        item = fn({"enum": ["Bool", "Int", *sorts]}, _name())
    return {"type": "object", "properties": {"functions": {"type": "array", "minItems": 1, "maxItems": MAX_FUNCTIONS,
                                                           "items": item}}, "required": ["functions"]}


# words for a number a quantity's name may use though the text does not ("The plums are the cheapest": price)
QUANTITY_WORDS = frozenset("place position rank order number count amount price cost age size day time year slot "
                           "seat score height weight length value level".split())


def _name_pattern(words: list[str]) -> str:
    """A name of up to five of `words` joined by "_", at least one of them a content word (not
    "with", "of", "is" …: a name of those alone says nothing)."""
    def group(ws: set[str]) -> str:
        return "(" + "|".join(sorted(ws, key=lambda w: (-len(w), w))) + ")"
    stop = {w for w in words if w in STOP}
    content = group(set(words) - stop)
    if not stop:
        return f"^{content}(_{content}){{0,4}}$"
    return f"^({group(stop)}_){{0,2}}{content}(_{group(set(words))}){{0,4}}$"


def text_words(text: str) -> list[str]:
    """The words a property's name may be made of: the text's of two letters or more (lower case;
    a plural also without its "s"), longest first, with "is" and "has"."""
    words = {w for w in re.findall(r"[a-z][a-z0-9]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", text).lower())}
    if not words:
        return []
    words |= {w[:-1] for w in words if len(w) > 3 and w.endswith("s") and not w.endswith("ss")}
    words |= {w[:-2] for w in words if len(w) > 4 and w.endswith("es")} | {"is", "has"}
    return sorted(words, key=lambda w: (-len(w), w))


def token_pattern(names: list[str], fmt: str) -> str:
    """A regex for a formula made only of these names, the format's words and operators."""
    words = JSON_WORDS if fmt == "json" else SMT2_WORDS
    ops = JSON_OPS if fmt == "json" else SMT2_OPS
    alternatives = sorted({*names, *words}, key=len, reverse=True)
    return "^(" + "|".join([*(_literal(a) for a in alternatives), *(o if o == "[0-9]" else _literal(o) for o in ops)]) + ")+$"


def _literal(text: str) -> str:
    """`text` as a regex literal that grammar converters read (re.escape's "\\ " and "\\-" they do not)."""
    return "".join("\\" + c if c in ".^$*+?()[]{}|\\" else c for c in text)


# -- the vocabulary ----------------------------------------------------------------------------

class Vocabulary:
    """What steps 1 and 2 declared, and how to write a program from it."""

    def __init__(self, kinds: Kinds, words: Words) -> None:
        self.sorts = kinds.sorts
        self.functions = words.functions

    def names(self) -> list[str]:
        return [*(m for s in self.sorts for m in s.members), *(f.name for f in self.functions), *VARIABLES]

    def describe(self, fmt: str) -> str:
        lines = []
        for s in self.sorts:
            kind = "exactly these" if s.closed else "among others"
            lines.append(f"- {s.name}: {', '.join(s.members) or '(no named members)'} ({kind})")
        for f in self.functions:
            args = ", ".join(f.args)
            sig = f"{f.name}({args}) -> {f.result}" if fmt == "json" else f"({f.name} {' '.join(f.args)}) : {f.result}"
            place = f.position and f.result == "Int"     # position means nothing for a property
            lines.append(f"- {sig}" + ("  (a different number 1..N for each)" if place else ""))
        return "\n".join(lines)

    # the settings sym writes: positions are 1..N and all different
    def position_settings(self, fmt: str, distinct: bool = True) -> list[tuple[str, str]]:
        """(label, formula in `fmt`) per position function over a closed sort: each member's place
        in 1..N, all different; without `distinct`, only the range 1..N."""
        out: list[tuple[str, str]] = []
        for f in self.functions:
            sort = next((s for s in self.sorts if [s.name] == f.args), None)
            if not (f.position and f.result == "Int" and sort is not None and sort.closed and sort.members):
                continue
            n, ms = len(sort.members), sort.members
            apart = n > 1 and distinct
            js = "And(" + ", ".join([f"{f.name}({m}) >= 1, {f.name}({m}) <= {n}" for m in ms]
                                    + ([f"Distinct({', '.join(f'{f.name}({m})' for m in ms)})"] if apart else [])) + ")"
            sm = "(and " + " ".join([f"(>= ({f.name} {m}) 1) (<= ({f.name} {m}) {n})" for m in ms]
                                    + ([f"(distinct {' '.join(f'({f.name} {m})' for m in ms)})"] if apart else [])) + ")"
            out.append((f"each {sort.name} has its own {f.name} from 1 to {n}", js if fmt == "json" else sm))
        return out


def check_kinds(kinds: Kinds) -> list[str]:
    problems, seen = [], set()
    for s in kinds.sorts:
        for name in [s.name, *s.members]:
            if name in RESERVED or name in VARIABLES or name in seen:
                problems.append(f"{name!r} is used twice or is a reserved word; choose another name")
            seen.add(name)
        if s.closed and not s.members:
            problems.append(f"sort {s.name!r} is closed but lists no members")
    return problems


_COUNTED = re.compile(r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|exactly|only|"
                      r"following|each of)\b", re.IGNORECASE)


def open_uncounted(kinds: Kinds, text: str) -> list[str]:
    """Sorts the model called closed though the text neither counts nor lists their members (no
    number, "exactly", "only", "the following"), or names fewer than two: they are opened, in
    place, and named. A closed sort makes "all people" mean the people named, which proves
    what the text does not say; an open one only leaves such claims unknown."""
    if _COUNTED.search(text):
        opened = [s for s in kinds.sorts if s.closed and len(s.members) < 2]
    else:
        opened = [s for s in kinds.sorts if s.closed]
    for s in opened:
        s.closed = False
    return [s.name for s in opened]


# the invented names step 2's prompt shows as examples: a function named so was copied, not read
EXAMPLE_NAMES = frozenset({"wug", "zib"})


def check_words(words: Words, kinds: Kinds, text: str = "") -> list[str]:
    """Step 2's problems: a name used twice, an unknown sort, and (given the `text`) a property or
    relation named with a word the text does not use, which step 3 could only refuse sentence by
    sentence (numeric functions are exempt: "place", "age" are the model's own names), or a
    function named as the prompt's example (copied: seen, `age(Person)` over the seven people of
    an AR-LSAT schedule, which made their ages 1..7)."""
    taken = {s.name for s in kinds.sorts} | {m for s in kinds.sorts for m in s.members} | set(VARIABLES) | RESERVED
    problems, seen = [], set()
    sorts = {s.name for s in kinds.sorts}
    said = stems(text)
    for f in words.functions:
        if f.name in taken or f.name in seen:
            problems.append(f"{f.name!r} is already a name; choose another for this function")
        seen.add(f.name)
        bad = [a for a in [*f.args, f.result] if a not in sorts | {"Int", "Bool"}]
        if bad:
            problems.append(f"{f.name}: unknown sort {bad[0]!r}")
        elif not stems(f.name):
            problems.append(f"{f.name!r} says nothing (only words such as 'with', 'of'); name it with the text's "
                            "words for what it is")
        elif _copied(f, said):
            problems.append(f"{f.name!r} is the example's name, not the text's; name it with the text's own words")
        elif text and _unfaithful(f, said):
            problems.append(f"{f.name!r} says {unsaid(f.name, said)!r}, which the text does not; name it with "
                            "the text's own words")
        elif _misplaced(f, kinds):
            problems.append(f"{f.name}: a position numbers the members of a closed sort 1..N, and {f.args[0]!r} "
                            "lists no fixed members; give the position to the sort whose members the text lists")
    return problems


def _misplaced(f: FunctionStep, kinds: Kinds) -> bool:
    """A position function over anything but one closed sort with its members listed: "each has
    its own place 1..N" needs the N (seen: position(Person), Person open and empty, beside the
    five books the text was about). A position flag on a property means nothing."""
    closed = {s.name for s in kinds.sorts if s.closed and s.members}
    return f.position and f.result == "Int" and not (len(f.args) == 1 and f.args[0] in closed)


def _copied(f: FunctionStep, said: set[str]) -> bool:
    """A function named as the prompt's example, a word the text (its stems: `said`) does not use."""
    return f.name in EXAMPLE_NAMES and not stems(f.name) <= said


def _unfaithful(f: FunctionStep, said: set[str]) -> bool:
    """A property or relation named with a word the text (its stems: `said`) does not use;
    numeric functions are the model's own names."""
    return f.result != "Int" and not stems(f.name) <= said


def without_faulty(words: Words, kinds: Kinds, text: str) -> tuple[Words, list[str]] | None:
    """Step 2's last answer when its only faults are functions named with words the text does not
    use or positions over a sort with no listed members: (the words less those functions, how
    they were written: "position(Person)"). None when another problem remains or nothing would
    be left. A function is judged by itself, not by its name: of position(Person) and
    position(Book), the books' stays. A sentence that needed a dropped word gets no formula and
    is left out, so the program can only be weaker than the text: its proofs and refutations
    stand, its "unknown" does not count."""
    said = stems(text)
    bad = [f for f in words.functions
           if not stems(f.name) or _unfaithful(f, said) or _misplaced(f, kinds) or _copied(f, said)]
    kept = Words(functions=[f for f in words.functions if f not in bad])
    if not bad or not kept.functions or check_words(kept, kinds, text):
        return None
    return kept, [f"{f.name}({', '.join(f.args)})" for f in bad]




def introduced_only(words: Words, kinds: Kinds, sentences: list[str]) -> list[FunctionStep]:
    """The properties and relations step 2 took from an introduction alone (a sentence naming every
    member of a closed sort) that no other sentence says: nothing asks of them, and every formula
    step 3 writes with them misreads it (seen with the reference model on AR-LSAT: `wall(Person)`,
    flagged a position, from "… will be assigned to a row of five adjacent lockers, … arranged along
    a straight wall", written into every condition and option of every sample). Numbers are exempt:
    their names are the model's own."""
    said = [(introduces(t, kinds.sorts), stems(t)) for t in sentences]
    return [f for f in words.functions if f.result != "Int" and stems(f.name)
            and {intro for intro, words_ in said if stems(f.name) <= words_} == {True}]


# -- one formula --------------------------------------------------------------------------------

_BINDERS = re.compile(r"(?:ForAll|Exists)\(\s*\[([^\]]*)\]")


def variable_sorts(formula: str, vocab: Vocabulary) -> dict[str, str]:
    """The sort of each variable a JSON formula binds, from where it is used as an argument."""
    out: dict[str, str] = {}
    bound = {v.strip() for group in _BINDERS.findall(formula) for v in group.split(",") if v.strip()}
    for v in bound:
        for f in vocab.functions:
            for m in re.finditer(rf"\b{re.escape(f.name)}\(([^()]*)\)", formula):
                args = [a.strip() for a in m.group(1).split(",")]
                if v in args and args.index(v) < len(f.args):
                    out.setdefault(v, f.args[args.index(v)])
        if v not in out:
            opens = [s.name for s in vocab.sorts]
            if len(opens) == 1:
                out[v] = opens[0]
    return out




def closed_formula(formula: str, fmt: str, vocab: Vocabulary) -> str:
    """The formula with its free variables (x, y, z used but not bound) universally closed, as an
    axiom's free variables are read ("If people perform, then they attend": for all x)."""
    if fmt == "json":
        bound = {v.strip() for group in _BINDERS.findall(formula) for v in group.split(",")}
        free = [v for v in VARIABLES if v in set(WORD.findall(formula)) - bound]
        return f"ForAll([{', '.join(free)}], {formula})" if free else formula
    bound = set(re.findall(r"\(\(?\s*([xyz])\s+[A-Za-z_]", formula))
    free = [v for v in VARIABLES if v in set(WORD.findall(formula)) - bound]
    if not free:
        return formula
    sorts = variable_sorts_smt2(formula, vocab)
    return f"(forall ({' '.join(f'({v} {sorts.get(v, vocab.sorts[0].name)})' for v in free)}) {formula})"


def variable_sorts_smt2(formula: str, vocab: Vocabulary) -> dict[str, str]:
    out: dict[str, str] = {}
    for f in vocab.functions:
        for m in re.finditer(rf"\({re.escape(f.name)}((?:\s+[A-Za-z_][A-Za-z0-9_]*)+)\s*\)", formula):
            for i, a in enumerate(m.group(1).split()):
                if a in VARIABLES and i < len(f.args):
                    out.setdefault(a, f.args[i])
    return out


def json_program(vocab: Vocabulary, premises: list[tuple[str, str]], claims: list[tuple[str, str]]) -> Any:
    """The DSL program: sorts, constants, functions, a named entry per premise, a verification per claim."""
    sorts = [{"name": s.name, "type": "EnumSort" if s.closed else "DeclareSort", **({"values": s.members} if s.closed else {})}
             for s in vocab.sorts]
    constants = {s.name.lower(): {"sort": s.name, "members": s.members} for s in vocab.sorts if not s.closed and s.members}
    functions = [{"name": f.name, "domain": f.args, "range": f"{f.result}Sort" if f.result in ("Int", "Bool") else f.result}
                 for f in vocab.functions]
    kb = [{"name": label, "assertion": formula,
           "variables": [{"name": v, "sort": s} for v, s in variable_sorts(formula, vocab).items()]}
          for label, formula in premises]
    globals_: dict[str, str] = {}
    for _, formula in claims:
        globals_.update(variable_sorts(formula, vocab))
    return Program.model_validate({
        "sorts": sorts, "constants": constants, "functions": functions,
        "variables": [{"name": v, "sort": s} for v, s in globals_.items()], "knowledge_base": kb,
        "verifications": [{"name": name, "constraint": formula} for name, formula in claims]})


def smt2_program(vocab: Vocabulary, premises: list[tuple[str, str]], claims: list[tuple[str, str]]) -> Any:
    lines = []
    for s in vocab.sorts:
        if s.closed:
            lines.append(f"(declare-datatypes () (({s.name} {' '.join(s.members)})))")
        else:
            lines.append(f"(declare-sort {s.name} 0)")
            lines += [f"(declare-const {m} {s.name})" for m in s.members]
    lines += [f"(declare-fun {f.name} ({' '.join(f.args)}) {f.result})" for f in vocab.functions]
    taken = set(vocab.names()) | {s.name for s in vocab.sorts}
    lines += [f"(assert (! {formula} :named {quoted(label, taken)}))" for label, formula in premises]
    for name, formula in claims:
        q = quoted(name, taken)
        lines += [f"(define-fun {q} () Bool {formula})", f"(check-sat-assuming ({q}))"]
    return Smt2Program("\n".join(lines) + "\n", "steps", strict=True)


def assemble(vocab: Vocabulary, fmt: str, premises: list[tuple[str, str]], claims: list[tuple[str, str]]) -> Any:
    return json_program(vocab, premises, claims) if fmt == "json" else smt2_program(vocab, premises, claims)


def formula_problem(vocab: Vocabulary, fmt: str, formula: str) -> str | None:
    """Why a formula does not type-check against the vocabulary, or None."""
    try:
        if fmt == "json":
            build(json_program(vocab, [("f", formula)], []))
        else:
            build_smt2(smt2_program(vocab, [("f", formula)], []))
    except UserError as err:
        return re.sub(r"^(steps: |knowledge_base\[0\][.\w]*: |line \d+ column \d+: )+", "", err.message)
    except ValueError as err:      # pydantic: a name the schema refuses
        return str(err).splitlines()[0]
    return None
