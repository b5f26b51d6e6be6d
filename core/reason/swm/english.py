"""The controlled-English fast path: templated sentences → logic clauses or state updates,
questions → goals, with no language model. Anything it does not know returns None (the
reasoner then asks the LLM); it never guesses and never special-cases a dataset's words.

Naming scheme (one for every sentence form):
- adjective: `big(bob)`; strong negation for "not": `~big(bob)`.
- verb, 3rd person singular whatever the surface form ("eat", "eats", "does not eat"):
  `eats(cat, 'bald eagle')`, `~eats(…)`.
- "C is the R of A": `R_of(c, a)` (spaces and hyphens in R become `_`).
- "X is a cat": `cat(x)`.
- objects: "the " dropped, lower case, multi-word common nouns kept with spaces and quoted
  (`'bald eagle'`); proper names lower case with `_` between words (`Box 0` → `box_0`).
- rules: "something/someone" is a variable, "it/they/them" refer back to it; single capital
  letters (A, B, C) are variables in rules.
- state (Boxes): `contains(box_0, glass)`; operations are `Update`s applied in order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.logic.terms import Atom, Var, format_const

# -- results -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Update:
    """A state change: for each binding of `match` (logic body text; "" = one empty binding)
    remove the instantiated `remove` atoms and add the instantiated `add` atoms, all at once."""

    match: str
    remove: list[str]
    add: list[str]


@dataclass(frozen=True)
class Translation:
    """What one sentence means. A consumer applies `updates` first (in order), then adds
    `clauses`; for a state sentence the updates clear the container and the clauses fill it."""

    sentence: str
    clauses: list[str]          # logic text, each parseable by core.logic.parser.parse_program
    updates: list[Update] = field(default_factory=list)
    kind: str = "fact"          # fact | rule | state | operation
    nl: str = ""


# -- words -------------------------------------------------------------------------------

_KEYWORDS = frozenset("""is are was were be not does do doesn't don't did and or then if of the a an
all every each to from into in nothing something someone somebody anything anyone it they them
itself themselves everything everyone everybody nobody none ,""".split())
_INDEFINITE = frozenset({"something", "someone", "somebody", "anything", "anyone"})
_PRONOUNS = frozenset({"it", "they", "them", "itself", "themselves"})
_PLURAL_PRONOUNS = frozenset({"they", "them", "themselves"})
_CLASS_NOUNS = frozenset({"things", "people", "persons", "animals", "ones", "objects", "creatures",
                          "thing", "person", "animal", "one", "object", "creature"})
_COPULAS = frozenset({"is", "are"})
_WORD = re.compile(r"[a-z][a-z'-]*\Z")
_NAME_WORD = re.compile(r"(?:[A-Z][A-Za-z'-]*|\d+)\Z")
_CONTAINS = frozenset({"contains", "contain"})
# words that never sit inside a "the …" noun phrase of the controlled language
_FUNCTION = frozenset("""for with her his their its my your our by at on about called named who whom which
that this these those some any no very also too out as than but so because while when where
there here""".split())


def _pred(words: list[str]) -> str | None:
    """Predicate name from surface words: lower case, spaces and hyphens → `_`."""
    name = "_".join(w.lower().replace("-", "_").replace("'", "") for w in words)
    return name if re.fullmatch(r"[a-z][a-z0-9_]*", name) and name not in ("not", "false") else None


def third_person(verb: str) -> str:
    """The 3rd person singular of a base-form verb ("chase" → "chases", "carry" → "carries")."""
    irregular = {"be": "is", "have": "has", "do": "does", "go": "goes"}
    if verb in irregular:
        return irregular[verb]
    if re.search(r"(s|sh|ch|x|z|o)$", verb):
        return verb + "es"
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ies"
    return verb + "s"


def _tokens(text: str) -> list[str]:
    return text.strip().rstrip(".!").replace(",", " , ").split()


def _parts(words: list[str]) -> list[list[str]]:
    """A conjunction split on `and` and commas (empty pieces dropped)."""
    out, cur = [], []
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


class _Scope:
    """Variables of one sentence. `rule` is False for facts: then no variables are allowed."""

    def __init__(self, rule: bool):
        self.rule = rule
        self.order: list[Var] = []

    def fresh(self) -> Var | None:
        if not self.rule:
            return None
        var = Var("XYZWUV"[len(self.order)] if len(self.order) < 6 else f"V{len(self.order)}")
        self.order.append(var)
        return var

    def pronoun(self) -> Var | None:
        return self.order[0] if self.rule and self.order else None


def _np(words: list[str], scope: _Scope):
    """A noun phrase → (term, plural) or None."""
    if not words:
        return None
    low = [w.lower() for w in words]
    if len(words) == 1 and low[0] in _INDEFINITE:
        var = scope.fresh()
        return (var, False) if var is not None else None
    if len(words) == 1 and low[0] in _PRONOUNS:
        var = scope.pronoun()
        return (var, low[0] in _PLURAL_PRONOUNS) if var is not None else None
    if low[0] == "the" and 1 < len(words) <= 4:
        rest = words[1:]
        if all(_WORD.match(w) and w not in _KEYWORDS and w not in _FUNCTION for w in rest):
            return " ".join(rest), False
        return None
    if scope.rule and len(words) == 1 and re.fullmatch(r"[A-Z]", words[0]):
        return Var(words[0]), False  # "If B is the son of A, …": letters are variables
    if all(_NAME_WORD.match(w) for w in words) and words[0][0].isupper() and low[0] not in _KEYWORDS:
        return "_".join(low), False
    return None


def _verb(word: str, plural: bool) -> str | None:
    """Present-tense verb → its 3rd person singular; None for anything else (a singular
    subject with a verb not ending in -s is past tense or not a verb: not controlled English)."""
    if not _WORD.match(word) or word in _KEYWORDS or word in _FUNCTION:
        return None
    if not plural:
        return word if word.endswith("s") and not word.endswith("ss") else None
    return third_person(word)


def _predicate(words: list[str], subject, plural: bool, scope: _Scope):
    """A verb phrase about `subject` → (atoms, how to continue a conjunction) or None."""
    if not words:
        return None
    low = [w.lower() for w in words]
    if low[0] in _COPULAS:
        if any(w != w.lower() for w in words[1:]) and "of" not in low:
            return None  # adjectives and class nouns are lower case
        rest, neg = low[1:], False
        if rest[:1] == ["not"]:
            rest, neg = rest[1:], True
        if not rest:
            return None
        if rest[0] == "the" and "of" in rest[2:]:
            at = rest.index("of", 2)
            rel, obj = _pred(rest[1:at]), _np(words[len(words) - len(rest) + at + 1:], scope)
            if rel is None or obj is None or any(w in _KEYWORDS for w in rest[1:at]):
                return None
            return [Atom(rel + "_of", (subject, obj[0]), neg)], ["is"]
        if rest[0] in ("a", "an") and len(rest) > 1:
            noun = _pred(rest[1:]) if all(_WORD.match(w) and w not in _KEYWORDS for w in rest[1:]) else None
            return ([Atom(noun, (subject,), neg)], ["is"]) if noun else None
        if len(rest) == 1 and _WORD.match(rest[0]) and rest[0] not in _KEYWORDS:
            adj = _pred(rest)
            return ([Atom(adj, (subject,), neg)], ["is"]) if adj else None
        return None
    neg = False
    if low[0] in ("does", "do", "did") and len(low) > 2 and low[1] == "not":
        words, low, neg, plural = words[2:], low[2:], True, True
    elif low[0] in ("doesn't", "don't"):
        words, low, neg, plural = words[1:], low[1:], True, True
    elif low[0] in ("does", "do") and len(low) > 2:
        words, low, plural = words[1:], low[1:], True
    if not words:  # "Bob doesn't." says nothing
        return None
    verb = _verb(words[0], plural)
    obj = _np(words[1:], scope)
    if verb is None or obj is None or _pred([verb]) is None:
        return None
    return [Atom(verb, (subject, obj[0]), neg)], (["does", "not", low[0]] if neg else [verb])


def _clause(words: list[str], scope: _Scope):
    """SUBJECT PREDICATE → (atoms, subject, plural, continuation) or None."""
    for k in range(1, len(words)):
        saved = list(scope.order)
        subj = _np(words[:k], scope)
        if subj is not None:
            pred = _predicate(words[k:], subj[0], subj[1], scope)
            if pred is not None:
                return pred[0], subj[0], subj[1], pred[1]
        scope.order[:] = saved
    return None


def _conjunction(words: list[str], scope: _Scope, subject=None, plural=False, cont=None):
    """Clauses joined by `and`/commas; a piece without a subject continues the previous one
    ("is big and red", "chases the cat and the dog", "is big and chases the cat")."""
    atoms: list[Atom] = []
    for part in _parts(words):
        got = _clause(part, scope)
        if got is not None:
            new, subject, plural, cont = got
            atoms += new
            continue
        if subject is None:
            return None
        for attempt in (part, ["is"] + part, (cont or []) + part):
            saved = list(scope.order)
            pred = _predicate(attempt, subject, plural, scope)
            if pred is not None:
                atoms += pred[0]
                cont = pred[1] if attempt is part else cont
                break
            scope.order[:] = saved
        else:
            return None
    return atoms or None


def _rule_texts(heads: list[Atom], body: list[Atom]) -> list[str] | None:
    bound = {a for atom in body for a in atom.args if isinstance(a, Var)}
    if not body or any(isinstance(a, Var) and a not in bound for h in heads for a in h.args):
        return None
    tail = ", ".join(str(b) for b in body)
    return [f"{h} :- {tail}." for h in heads]


# -- sentence forms ----------------------------------------------------------------------

def _conditional(words: list[str]) -> list[str] | None:
    """If BODY (and …) then HEAD (and …)."""
    low = [w.lower() for w in words]
    if low[0] != "if" or "then" not in low:
        return None
    at = low.index("then")
    scope = _Scope(rule=True)
    body = _conjunction(words[1:at], scope)
    if body is None:
        return None
    heads = _conjunction(words[at + 1:], scope)
    return _rule_texts(heads, body) if heads else None


def _generic(words: list[str]) -> list[str] | None:
    """(All) ADJ, ADJ things are HEAD — also "Every big thing is red"."""
    low = [w.lower() for w in words]
    start = 1 if low[0] in ("all", "every", "each") else 0
    noun = next((i for i in range(start + 1, len(low)) if low[i] in _CLASS_NOUNS), None)
    if noun is None or noun + 1 >= len(low) or low[noun + 1] not in _COPULAS:
        return None
    adjectives = _parts(low[start:noun])
    if not adjectives or any(len(a) != 1 or not _WORD.match(a[0]) or a[0] in _KEYWORDS for a in adjectives):
        return None
    scope = _Scope(rule=True)
    x = scope.fresh()
    body = [Atom(_pred(a), (x,)) for a in adjectives]
    if any(b.pred is None for b in body):
        return None
    heads = _conjunction(words[noun + 1:], scope, subject=x, plural=True, cont=["are"])
    if heads is None:
        return None
    return _rule_texts(heads, body)


def _items(words: list[str]) -> list | None:
    """Noun phrases joined by `and`/commas (constants only)."""
    nps = [_np(part, _Scope(rule=False)) for part in _parts(words)]
    return [np[0] for np in nps] if nps and None not in nps else None


def _container(words: list[str]):
    items = _items(words) if words else None
    return items[0] if items and len(items) == 1 else None


def _has(box, item) -> str:
    return str(Atom("contains", (box, item)))


def _operation(words: list[str]) -> list[Update] | None:
    """Put/Remove/Move items, Move the contents of A to B, Empty A."""
    low = [w.lower() for w in words]
    verb, x = low[0], Var("X")

    def at(*marks):
        return next((i for i, w in enumerate(low) if w in marks and i > 1), None)

    if verb in ("move", "transfer") and low[1:4] == ["the", "contents", "of"] and at("to", "into"):
        src, dst = _container(words[4:at("to", "into")]), _container(words[at("to", "into") + 1:])
        ok = src is not None and dst is not None
        return [Update(_has(src, x), [_has(src, x)], [_has(dst, x)])] if ok else None
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


def _state(words: list[str]) -> tuple[list[str], list[Update]] | None:
    """BOX contains ITEMS / contains nothing / is empty: the whole contents of BOX."""
    low = [w.lower() for w in words]
    at = next((i for i, w in enumerate(low) if w in _CONTAINS), None)
    if at is not None:
        box, items = _container(words[:at]), [] if low[at + 1:] == ["nothing"] else _items(words[at + 1:])
    elif low[-2:] in (["is", "empty"], ["are", "empty"]):
        box, items = _container(words[:-2]), []
    else:
        return None
    if box is None or items is None:
        return None
    return [f"{_has(box, i)}." for i in items], [Update(_has(box, Var("X")), [_has(box, Var("X"))], [])]


def translate(sentence: str) -> Translation | None:
    """One sentence → its Translation, or None when it is not a form the fast path knows."""
    text = " ".join(sentence.split())
    words = _tokens(text) if not text.endswith("?") else []
    if not words:
        return None
    first = words[0].lower()
    if first == "if":
        rules = _conditional(words)
        return Translation(text, rules, [], "rule", text) if rules else None
    if first in ("put", "place", "add", "insert", "remove", "take", "move", "transfer", "empty"):
        ops = _operation(words)
        return Translation(text, [], ops, "operation", text) if ops else None
    state = _state(words)
    if state is not None:
        return Translation(text, state[0], state[1], "state", text)
    rules = _generic(words)
    if rules:
        return Translation(text, rules, [], "rule", text)
    atoms = _conjunction(words, _Scope(rule=False))
    return Translation(text, [f"{a}." for a in dict.fromkeys(atoms)], [], "fact", text) if atoms else None


# -- sentences ---------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(]?[A-Z0-9])")


def _list_parts(sentence: str) -> list[str] | None:
    """"X contains A and B, Y contains C." → one sentence per part, when every part is
    NAME VERB … with the same verb; None otherwise."""
    body = sentence.rstrip(".")
    parts = body.split(", ")
    if len(parts) < 2:
        return None
    verbs = set()
    for part in parts:
        words = part.split()
        k = 0
        while k < len(words) and _NAME_WORD.match(words[k]):
            k += 1
        if k == 0 or k == len(words) or not _WORD.match(words[k]) or words[0].lower() in _KEYWORDS:
            return None
        verbs.add(words[k])
    return [p + "." for p in parts] if len(verbs) == 1 else None


def split_sentences(text: str) -> list[str]:
    """Sentences of a text; "Box 0 contains …, Box 1 contains …" lists become one each."""
    out = []
    for raw in _SENTENCE_END.split(" ".join(text.split())):
        raw = raw.strip()
        if raw:
            out.extend(_list_parts(raw) or [raw])
    return out


# -- questions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Goal:
    """What a question asks. truth: a ground statement (true/false/unknown); values: the
    bindings of a query's variables; relation: which R_of(X, Y) holds between args."""

    kind: str
    query: str
    args: tuple
    question: str

    def render(self, value) -> str:
        if self.kind == "truth":
            word = str(value).lower()
            return {"true": "True", "false": "False"}.get(word, "Unknown")
        if self.kind == "relation":
            rel = str(value).removesuffix("_of").replace("_", "-")
            x, y = _relation_names(self.question) or tuple(_show_name(a) for a in self.args)
            return f"{x} is the {rel} of {y}."
        return _render_values(self.question, value)


def _show_name(const) -> str:
    return " ".join(w.capitalize() for w in str(const).split("_"))


def _render_values(question: str, value) -> str:
    rows = value if isinstance(value, (list, tuple)) else [value]
    consts = []
    for row in rows:
        vals = list(row.values()) if isinstance(row, dict) else [row]
        consts.extend(v for v in vals if v not in consts)
    who = question.strip().lower().startswith("who")
    if not consts:
        return "nobody" if who else "nothing"
    shown = [_show_name(c) if who else f"the {c}" for c in consts]
    return ", ".join(shown)


_WHAT_IN = {"what is contained in", "what is in", "what is inside", "what are the contents of"}
_HOW_RELATED = re.compile(r"how is (.+?) related to (.+?)\s*\??\s*$", re.I)


def _relation_names(question: str) -> tuple[str, str] | None:
    m = _HOW_RELATED.search(_last_question(question))
    return (m.group(1).strip(), m.group(2).strip()) if m else None


def _last_question(text: str) -> str:
    sentences = split_sentences(text)
    asked = [s for s in sentences if s.endswith("?")]
    return (asked or sentences or [""])[-1]


def _statement_atom(words: list[str]) -> Atom | None:
    atoms = _conjunction(words, _Scope(rule=False))
    return atoms[0] if atoms and len(atoms) == 1 else None


def question_goal(text: str) -> Goal | None:
    """A question (or a statement to check) → Goal, or None when the fast path does not know it."""
    question = " ".join(_last_question(text).split())
    if not question:
        return None
    words = _tokens(question.rstrip("?"))
    low = [w.lower() for w in words] or [""]
    scope = _Scope(rule=False)
    if _relation_names(question):
        x, y = _relation_names(question)
        a, b = _np(x.split(), scope), _np(y.split(), scope)
        if a is None or b is None:
            return None
        shown = ", ".join(format_const(t) for t in (a[0], b[0]))
        return Goal("relation", f"R_of({shown})", (a[0], b[0]), question)
    lead = next((n for n in (5, 4, 3) if " ".join(low[:n]) in _WHAT_IN), None)
    if lead or low[:2] == ["what", "does"] and low[-1] in _CONTAINS:
        box = _container(words[lead:] if lead else words[2:-1])
        return Goal("values", _has(box, Var("X")), (), question) if box is not None else None
    if low[:3] == ["who", "is", "the"] and "of" in low[3:]:
        at = low.index("of", 3)
        rel, obj = _pred(low[3:at]), _np(words[at + 1:], scope)
        if rel is None or obj is None:
            return None
        return Goal("values", str(Atom(rel + "_of", (Var("X"), obj[0]))), (), question)
    atom = None
    if question.endswith("?") and low[0] in ("is", "are", "does", "do") and len(words) > 2:
        for k in range(2, len(words)):
            rest = words[k:]
            if low[0] in _COPULAS:
                statement = words[1:k] + [low[0]] + rest
            elif rest[0].lower() == "not":
                statement = words[1:k] + ["does", "not"] + rest[1:]
            else:
                statement = words[1:k] + ["does"] + rest
            atom = _statement_atom(statement)
            if atom is not None:
                break
    elif not question.endswith("?"):
        atom = _statement_atom(words)
    return Goal("truth", str(atom), (), question) if atom is not None else None


def relation_answer(facts, goal: Goal, rank=None) -> str | None:
    """The answer sentence for a relation goal: an `R_of(X, Y)` among `facts` (atoms) whose
    arguments are the goal's; None when none holds. When several hold, the one with the
    highest `rank(atom)` wins (e.g. how many given facts its proof rests on: the relation
    that uses the whole story), the first among equals."""
    best, best_rank = None, None
    for fact in facts:
        if isinstance(fact, Atom) and not fact.neg and fact.pred.endswith("_of") and tuple(fact.args) == tuple(goal.args):
            score = rank(fact) if rank is not None else 0
            if best is None or score > best_rank:
                best, best_rank = fact, score
    return goal.render(best.pred) if best is not None else None
