"""Let the model choose, not write: JSON schemas whose fields are enums of what sym offers, and
the checks that turn a chosen reply into logic terms.

A statement is a predicate picked from the schema's list (or a proposed new name, which sym
validates and lower-snake-cases), arguments picked from the sentence's constants or the
variables X/Y/Z, a kind and a negation flag; a rule adds the atoms of its conditions. The test
server and small models do not honour `format`, so every reply is checked here again and a
problem is one line the model can act on. Nothing here evaluates model output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sym.core.logic.terms import Atom, Rule, Var
from sym.core.reason.swm.candidates import Const, shown
from sym.core.reason.swm.english import lexicon
from sym.core.reason.swm.english.lexicon import PREPOSITIONS
from sym.core.reason.swm.english.render import render_clause

VARIABLES = ("X", "Y", "Z")
OTHER = "other"
KINDS = ("fact", "rule", "soft")
GOAL_KINDS = ("truth", "values", "relation")
_SNAKE = re.compile(r"[a-z][a-z0-9_]{0,39}\Z")


class Invalid(ValueError):
    """A reply that cannot be used; the message goes back to the model as it is."""


@dataclass(frozen=True)
class Menu:
    """What one call may choose from: predicates (name → arities), argument constants, and the
    words of the prompt's examples (which a reply must not copy)."""

    predicates: dict[str, tuple[int, ...]]
    constants: list[Const]
    banned: frozenset[str] = frozenset()
    variables: tuple[str, ...] = VARIABLES

    @property
    def predicate_names(self) -> list[str]:
        return [*sorted(self.predicates), OTHER]

    @property
    def arguments(self) -> list[str]:
        return [shown(c) for c in self.constants] + list(self.variables)


# -- schemas -------------------------------------------------------------------------------

def _atom_schema(menu: Menu) -> dict[str, Any]:
    return {"type": "object",
            "properties": {"predicate": {"type": "string", "enum": menu.predicate_names},
                           "new_predicate": {"type": "string", "maxLength": 40},
                           "args": {"type": "array", "items": {"type": "string", "enum": menu.arguments},
                                    "minItems": 1, "maxItems": 3},
                           "negated": {"type": "boolean"}},
            "required": ["predicate", "args", "negated"]}


def statement_schema(menu: Menu) -> dict[str, Any]:
    """The `format` for one sentence: up to four statements, each an atom plus kind and conditions."""
    head = _atom_schema(menu)
    item = {"type": "object",
            "properties": {"kind": {"type": "string", "enum": list(KINDS)}, **head["properties"],
                           "if": {"type": "array", "items": _atom_schema(menu), "maxItems": 3}},
            "required": ["kind", *head["required"]]}
    return {"type": "object", "properties": {"statements": {"type": "array", "items": item, "minItems": 1,
                                                            "maxItems": 4}},
            "required": ["statements"]}


def goal_schema(menu: Menu) -> dict[str, Any]:
    atom = _atom_schema(menu)
    return {"type": "object",
            "properties": {"kind": {"type": "string", "enum": list(GOAL_KINDS)}, **atom["properties"]},
            "required": ["kind", *atom["required"]]}


# -- checks --------------------------------------------------------------------------------

def _norm(text: str) -> str:
    return re.sub(r"[\s_\-]+", "_", str(text).strip().lower()).strip("_")


def snake(name: str) -> str:
    """A proposed predicate name lower-snake-cased: "Is Afraid Of" → afraid_of is not attempted;
    spaces and dashes become underscores, anything else that is not a letter or digit goes."""
    return re.sub(r"_+", "_", re.sub(r"[^a-z0-9_]", "", _norm(name))).strip("_")


def _choices(values: list[str], limit: int = 20) -> str:
    more = len(values) - limit
    return ", ".join(values[:limit]) + (f" (and {more} more)" if more > 0 else "")


def _argument(value: object, menu: Menu, where: str) -> Var | Const:
    text = str(value).strip()
    if text in menu.variables:
        return Var(text)
    low = _norm(text)
    low = low[4:] if low.startswith("the_") else low
    for const in menu.constants:
        if _norm(shown(const)) == low:
            return const
    raise Invalid(f"{where}: {text!r} is not one of the things you may choose; "
                  f"choose from: {_choices(menu.arguments)}")


def _predicate(entry: dict[str, Any], arity: int, menu: Menu, where: str, sentence: str) -> str:
    raw = str(entry.get("predicate") or "").strip()
    name = _norm(raw.split("/")[0].split("(")[0])
    if name in menu.predicates:
        if arity not in menu.predicates[name]:
            want = " or ".join(str(a) for a in menu.predicates[name])
            raise Invalid(f"{where}: {name} takes {want} argument(s), not {arity}")
        return name
    if name not in (OTHER, ""):
        raise Invalid(f"{where}: predicate {raw!r} is not in the list; pick one of "
                      f"{_choices(menu.predicate_names)}, or \"other\" with a new_predicate")
    proposed = snake(str(entry.get("new_predicate") or ""))
    if not proposed:
        raise Invalid(f"{where}: predicate is \"other\" but new_predicate is empty; give a short lower_snake_case name")
    if not _SNAKE.match(proposed):
        raise Invalid(f"{where}: new_predicate {proposed!r} must start with a letter and be at most 40 characters")
    if proposed in menu.banned and proposed not in _norm(sentence):
        raise Invalid(f"{where}: {proposed!r} comes from the examples, not from the sentence")
    return proposed


def _atom(entry: object, menu: Menu, where: str, sentence: str) -> Atom:
    if not isinstance(entry, dict):
        raise Invalid(f"{where}: expected an object with predicate, args and negated")
    args = entry.get("args")
    if isinstance(args, (str, int)):
        args = [args]
    if not isinstance(args, list) or not args:
        raise Invalid(f"{where}: args must be a non-empty list")
    terms = tuple(_argument(a, menu, where) for a in args)
    pred = _predicate(entry, len(terms), menu, where, sentence)
    negated = entry.get("negated", False)
    negated = negated.strip().lower() in ("true", "yes") if isinstance(negated, str) else bool(negated)
    return Atom(pred, terms, negated)


def _has_var(atom: Atom) -> bool:
    return any(isinstance(a, Var) for a in atom.args)


def statements(data: object, menu: Menu, sentence: str) -> list[tuple[str, Atom | Rule]]:
    """(kind, clause) pairs from a reply shaped by `statement_schema`. Raises Invalid."""
    if not isinstance(data, dict):
        raise Invalid("expected a JSON object with a \"statements\" list")
    items = data.get("statements", data.get("items"))
    if isinstance(items, dict):
        items = [items]
    if not isinstance(items, list) or not items:
        raise Invalid("\"statements\" must be a non-empty list")
    out: list[tuple[str, Atom | Rule]] = []
    for n, entry in enumerate(items[:8], start=1):
        where = f"statement {n}"
        if not isinstance(entry, dict):
            raise Invalid(f"{where}: expected an object")
        kind = str(entry.get("kind") or "fact").strip().lower()
        if kind not in KINDS:
            raise Invalid(f"{where}: kind {kind!r} is not one of fact, rule, soft")
        head = _atom(entry, menu, where, sentence)
        conditions = entry.get("if") or []
        if isinstance(conditions, dict):
            conditions = [conditions]
        if not isinstance(conditions, list):
            raise Invalid(f"{where}: \"if\" must be a list of conditions")
        body = tuple(_atom(c, menu, f"{where}, condition {k}", sentence) for k, c in enumerate(conditions, 1))
        if not body:
            if _has_var(head):
                raise Invalid(f"{where}: a fact names things, not {', '.join(menu.variables)}; "
                              "for a general statement give its conditions in \"if\"")
            clause: Atom | Rule = head
            kind = "fact" if kind == "rule" else kind
        else:
            bound = {a.name for b in body for a in b.args if isinstance(a, Var)}
            loose = [a.name for a in head.args if isinstance(a, Var) and a.name not in bound]
            if loose:
                raise Invalid(f"{where}: the conclusion uses {loose[0]}, which no condition in \"if\" mentions")
            clause = Rule(head, body)
            kind = "rule" if kind == "fact" else kind
        if (kind, clause) not in out:                # a model that repeats itself adds nothing twice
            out.append((kind, clause))
    return out


@dataclass(frozen=True)
class ChosenGoal:
    kind: str
    atom: Atom


def goal(data: object, menu: Menu, question: str) -> ChosenGoal:
    """A goal from a reply shaped by `goal_schema`. Raises Invalid."""
    if not isinstance(data, dict):
        raise Invalid("expected a JSON object with kind, predicate, args and negated")
    kind = str(data.get("kind") or "").strip().lower()
    if kind not in GOAL_KINDS:
        raise Invalid(f"kind {kind!r} is not one of {', '.join(GOAL_KINDS)}")
    if kind == "relation":
        args = data.get("args")
        if not isinstance(args, list) or len(args) != 2:
            raise Invalid("a relation question needs args with exactly the two things it asks about")
        terms = tuple(_argument(a, menu, "args") for a in args)
        if any(isinstance(t, Var) for t in terms):
            raise Invalid("a relation question names two things, not variables")
        return ChosenGoal(kind, Atom("R_of", terms))
    atom = _atom(data, menu, "goal", question)
    if kind == "values" and not _has_var(atom):
        raise Invalid("a values question needs X where the answer goes in args")
    return ChosenGoal(kind, atom)       # a truth goal with X ("Is anyone dax?") is read existentially


# -- the reading, checked against the sentence -----------------------------------------------

# Words a rendering adds around the chosen predicate and things ("X is a cat", "If … then …").
_FUNCTION = frozenset("""a an the is are was were be been am do does did not if then and or but of to than
that who which it so""".split())
_NEGATION = frozenset("not no never none nobody nothing neither nor cannot nowhere".split())
_WORDS = re.compile(r"[A-Za-z]+|\d+")


def _said(term: object) -> str:
    """A term as the rendering writes it: X, Bob, Box 3, the bald eagle, 7."""
    if isinstance(term, Var):
        return term.name
    text = str(term)
    if " " in text:
        return f"the {text}"
    return " ".join(p.capitalize() if p.isalpha() else p for p in text.split("_"))


def render_atom(atom: Atom, templates: dict[str, str]) -> str:
    """`atom` in English: the schema's template, else the grammar's controlled English, else
    `pred(args)`. Negation is always written ("not", or "it is not so that …")."""
    args = [_said(a) for a in atom.args]
    template = templates.get(f"{atom.pred}/{len(atom.args)}", "")
    controlled = render_clause(atom)
    if controlled and (atom.neg or not template):
        return controlled.rstrip(".")
    if template:
        text = re.sub(r"\{(\d+)\}", lambda m: args[int(m.group(1))] if int(m.group(1)) < len(args) else m.group(0),
                      template)
    else:
        text = f"{atom.pred}({', '.join(args)})"
    return f"it is not so that {text}" if atom.neg else text


def render_reading(clauses: list[tuple[str, Atom | Rule]], templates: dict[str, str], *, soft: bool = True) -> str:
    """The clauses of one reading as English sentences (a soft rule as "Usually, if …" when `soft`)."""
    out = []
    for kind, clause in clauses:
        if isinstance(clause, Rule) and clause.head is not None:
            body = " and ".join(render_atom(b, templates) for b in clause.body if isinstance(b, Atom))
            text = f"If {body} then {render_atom(clause.head, templates)}."
            out.append(f"Usually, i{text[1:]}" if soft and kind == "soft" else text)
        elif isinstance(clause, Atom):
            text = render_atom(clause, templates)
            out.append((text if "(" in text else text[:1].upper() + text[1:]) + ".")
    return " ".join(out)


def _lemmas(word: str) -> set[str]:
    low = word.lower()
    return {low, lexicon.noun_lemma(low), lexicon.verb_lemma(low)}


def _negated(text: str) -> bool:
    return bool(re.search(r"n[’']t\b", text, re.I)) or any(w.lower() in _NEGATION for w in _WORDS.findall(text))


def check_reading(clauses: list[tuple[str, Atom | Rule]], sentence: str, templates: dict[str, str],
                  context: str = "") -> list[tuple[str, Atom | Rule]]:
    """`clauses` when their rendering keeps to the sentence: every content word of the rendering
    is a word of the sentence (or of `context`, the sentence shown before it), lemma-wise, and
    the rendering says NOT exactly when the sentence does. Raises Invalid naming what it adds."""
    rendered = render_reading(clauses, templates, soft=False)
    said = f"the model's reading {rendered!r} does not say what the sentence says"
    known: set[str] = set()
    for word in _WORDS.findall(f"{sentence} {context}"):
        known |= _lemmas(word)
    for word in _WORDS.findall(rendered):
        if len(word) == 1 and word.isupper() or word.lower() in _FUNCTION or word.lower() in PREPOSITIONS:
            continue                                   # a variable or a word the rendering adds
        if not _lemmas(word) & known:
            raise Invalid(f"{said}: {word.lower()!r} is not in it; choose the sentence's own words")
    atoms = [a for _, c in clauses for a in ([c] if isinstance(c, Atom) else [c.head, *c.body])
             if isinstance(a, Atom)]
    negated = any(a.neg for a in atoms)
    if _negated(sentence) and not negated:
        raise Invalid(f"{said}: it drops the sentence's negation; set negated where the sentence says NOT")
    if negated and not _negated(sentence):
        raise Invalid(f"{said}: it says NOT, but the sentence has no negation")
    return clauses


# -- the second opinion: does the sentence say what the reading says? ------------------------

VERDICTS = ("yes", "no")
VERDICT_FORM = 'answer with {"answer": "yes"} or {"answer": "no"} only'


def verdict_schema() -> dict[str, Any]:
    return {"type": "object", "properties": {"answer": {"type": "string", "enum": list(VERDICTS)}},
            "required": ["answer"]}


def verdict(data: object) -> bool:
    """True for {"answer": "yes"}, False for "no". Raises Invalid for anything else."""
    answer = data.get("answer") if isinstance(data, dict) else None
    if not isinstance(answer, str) or answer.strip().lower() not in VERDICTS:
        raise Invalid(VERDICT_FORM)
    return answer.strip().lower() == "yes"
