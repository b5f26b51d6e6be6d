"""The schema of a workspace: its predicates (with arity, NL template, uses) and its objects.

It also spots a new predicate that looks like an existing one under another name
(`located_at` beside `located_in`), so memory keeps one canonical name per relation.
It only counts and compares; rewriting stored clauses is the caller's job.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sym.core.errors import UserError
from sym.core.logic.terms import Atom, Rule, Term, Var, clause_atoms, format_const, format_term
from sym.core.memory.embedders import Embedder, HashEmbedder, cosine, words_of

# Scores: same letters 1.0; otherwise 0.5 * content-word overlap + 0.3 * spelling ratio
# + 0.2 * embedding cosine. Measured with the hash embedder, true duplicates score 0.84
# (located_at~located_in) to 1.0, look-alike relations at most 0.35 (parent_of~grandparent_of
# and friend~friendly 0.35, father_of~mother_of 0.30, parent_of~ancestor_of 0.23, likes~sees
# 0.15, big~red 0.0). 0.6 sits in the middle of that gap; even a cosine of 1.0 from a semantic
# embedder adds at most 0.2, so father_of~mother_of (0.43 at worst) stays below it with any embedder.
DUPLICATE_THRESHOLD = 0.6
SAME_LETTERS_OTHER_ARITY = 0.7  # same name, different arity: worth a look, never a merge
_W_OVERLAP, _W_RATIO, _W_COSINE = 0.5, 0.3, 0.2

# Function words carry no relation of their own: located_at ~ located_in, isFriendOf ~ friend_of.
_FUNCTION_WORDS = frozenset("a an the of in at on to by for with from into onto as than is are was "
                            "were be been has have had its".split())
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


class SchemaDataError(UserError, ValueError):
    """Stored schema data that does not read back."""


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def parse_key(key: str) -> tuple[str, int]:
    """`father_of/2` -> ("father_of", 2)."""
    name, sep, arity = str(key).strip().rpartition("/")
    if not sep or not name or not arity.isdecimal():
        raise UserError(f"bad predicate {key!r}: expected NAME/ARITY", hint="e.g. father_of/2")
    return name, int(arity)


@dataclass
class Predicate:
    name: str
    arity: int
    template: str = ""      # NL form, e.g. "{0} is the father of {1}"
    count: int = 0          # stored clauses that use it

    @property
    def key(self) -> str:
        return f"{self.name}/{self.arity}"

    def render(self, args: Iterable[Term]) -> str:
        """The NL form of `name(args)`: the template filled in, else `name(a, b)`."""
        args = tuple(args)
        if len(args) != self.arity:
            raise UserError(f"{self.key} takes {self.arity} arguments, not {len(args)}")
        if self.template:
            def fill(m: re.Match[str]) -> str:
                i = _index(m.group(1))
                return _plain(args[i]) if i is not None and i < len(args) else m.group(0)
            return _PLACEHOLDER.sub(fill, self.template)
        if not args:
            return format_const(self.name)
        return f"{format_const(self.name)}({', '.join(format_term(a) for a in args)})"


def _index(placeholder: str) -> int | None:
    return int(placeholder) if placeholder.isascii() and placeholder.isdigit() else None


def _plain(value: Term) -> str:
    return value.name if isinstance(value, Var) else str(value)


def check_template(key: str, arity: int, template: str) -> str:
    """A template may use only {0}…{arity-1}, and must use each of them."""
    template = " ".join(str(template).split())
    if not template:
        return ""
    wanted = ", ".join(f"{{{i}}}" for i in range(arity)) or "no placeholders"
    hint = f"{key} takes {wanted}, e.g. \"{{0}} is the father of {{1}}\"" if arity == 2 else f"{key} takes {wanted}"
    found = _PLACEHOLDER.findall(template)
    if "{" in _PLACEHOLDER.sub("", template) or "}" in _PLACEHOLDER.sub("", template):
        raise UserError(f"unbalanced brace in template for {key}", hint=hint)
    bad = [f for f in found if (i := _index(f)) is None or i >= arity]
    if bad:
        raise UserError(f"template for {key} has unknown placeholder {{{bad[0]}}}", hint=hint)
    used = {_index(f) for f in found}
    missing = [i for i in range(arity) if i not in used]
    if missing:
        raise UserError(f"template for {key} leaves out argument {{{missing[0]}}}", hint=hint)
    return _PLACEHOLDER.sub(lambda m: f"{{{_index(m.group(1))}}}", template)


@dataclass(frozen=True)
class _Name:
    """A predicate name as compared: its letters, its content words, its words as text."""

    letters: str
    content: frozenset[str]
    text: str

    @classmethod
    def of(cls, name: str) -> _Name:
        words = words_of(name)
        stems = [_stem(w) for w in words]
        content = frozenset(s for s in stems if s not in _FUNCTION_WORDS) or frozenset(stems)
        return cls("".join(words), content, " ".join(words))


_default_embedder: HashEmbedder | None = None


class PredicateTable(dict[str, Predicate]):
    """The schema's predicates by key, indexed by their names' content words and letters as they
    come and go, so a new name is compared only with names it could be a duplicate of."""

    def __init__(self, predicates: dict[str, Predicate] | None = None) -> None:
        super().__init__()
        self.names: dict[str, _Name] = {}                    # key -> its name, as compared
        self.by_word: dict[str, set[str]] = {}               # content word -> keys
        self.by_letters: dict[str, set[str]] = {}            # letters -> keys
        self.update(predicates or {})

    def __reduce__(self) -> tuple[type[PredicateTable], tuple[dict[str, Predicate]]]:
        return PredicateTable, (dict(self),)     # copied or pickled: indexed again as it is built

    def _index(self, key: str, pred: Predicate) -> None:
        name = self.names[key] = _Name.of(pred.name)
        for word in name.content:
            self.by_word.setdefault(word, set()).add(key)
        self.by_letters.setdefault(name.letters, set()).add(key)

    def _unindex(self, key: str) -> None:
        name = self.names.pop(key, None)
        if name is not None:
            for word in name.content:
                self.by_word[word].discard(key)
            self.by_letters[name.letters].discard(key)

    def __setitem__(self, key: str, pred: Predicate) -> None:
        self._unindex(key)
        super().__setitem__(key, pred)
        self._index(key, pred)

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        self._unindex(key)

    def pop(self, key: str, *default: Any) -> Any:
        self._unindex(key)
        return super().pop(key, *default)

    def popitem(self) -> tuple[str, Predicate]:
        key, pred = super().popitem()
        self._unindex(key)
        return key, pred

    def setdefault(self, key: str, default: Predicate) -> Predicate:
        if key not in self:
            self[key] = default
        return self[key]

    def update(self, *others: Any, **more: Predicate) -> None:
        for key, pred in dict(*others, **more).items():
            self[key] = pred

    def clear(self) -> None:
        super().clear()
        self.names.clear()
        self.by_word.clear()
        self.by_letters.clear()

    def near(self, name: _Name) -> list[Predicate]:
        """The predicates sharing a content word or all the letters with `name`, in table order."""
        keys = set(self.by_letters.get(name.letters, ())).union(*(self.by_word.get(w, ()) for w in name.content))
        return [self[k] for k in sorted(keys)]


class Schema:
    def __init__(self, predicates: dict[str, Predicate] | None = None, objects: dict[str, int] | None = None):
        self.predicates: PredicateTable = PredicateTable(predicates)
        self.objects: dict[str, int] = dict(objects or {})
        self._vectors: dict[tuple[str, str], list[float]] = {}  # (embedder, words) -> vector

    # -- counting ------------------------------------------------------------------

    def observe(self, atom_pred: str, args: tuple[Term, ...] = (), *, arity: int | None = None) -> Predicate:
        """Count one more use of `atom_pred/arity` (default arity: len(args)) and of its constants.

        Strong negation is the same predicate: pass the plain name. Only symbolic constants
        (strings) count as objects; numbers are values and variables are not objects."""
        arity = len(args) if arity is None else arity
        key = f"{atom_pred}/{arity}"
        pred = self.predicates.get(key)
        if pred is None:
            pred = self.predicates[key] = Predicate(atom_pred, arity)
        pred.count += 1
        for a in args:
            if isinstance(a, str):
                self.objects[a] = self.objects.get(a, 0) + 1
        return pred

    def observe_clauses(self, clauses: Iterable[Atom | Rule], touched: set[str] | None = None) -> None:
        """`observe` every atom of each clause in turn (a fact's constants too; `touched` gets each
        name/arity): runs of facts are counted together, so 100k facts are a few Counters."""
        run: list[Atom] = []
        for clause in clauses:
            if isinstance(clause, Atom):
                run.append(clause)
                continue
            if run:
                self._observe_facts(run, touched)
                run = []
            for atom in clause_atoms(clause):
                if touched is not None:
                    touched.add(f"{atom.pred}/{len(atom.args)}")
                self.observe(atom.pred, (), arity=len(atom.args))
        if run:
            self._observe_facts(run, touched)

    def _observe_facts(self, facts: list[Atom], touched: set[str] | None) -> None:
        """As `observe(fact.pred, fact.args)` for each fact, in their order."""
        for (name, arity), uses in Counter((a.pred, len(a.args)) for a in facts).items():
            key = f"{name}/{arity}"
            if touched is not None:
                touched.add(key)
            pred = self.predicates.get(key)
            if pred is None:
                pred = self.predicates[key] = Predicate(name, arity)
            pred.count += uses
        objects = self.objects
        for name, uses in Counter(x for a in facts for x in a.args if isinstance(x, str)).items():
            objects[name] = objects.get(name, 0) + uses

    def forget(self, atom_pred: str, args: tuple[Term, ...] = (), *, arity: int | None = None) -> Predicate | None:
        """Undo one `observe`; a predicate or object whose count reaches zero is removed."""
        arity = len(args) if arity is None else arity
        key = f"{atom_pred}/{arity}"
        pred = self.predicates.get(key)
        if pred is not None:
            pred.count -= 1
            if pred.count <= 0:
                del self.predicates[key]
        for a in args:
            if isinstance(a, str) and a in self.objects:
                self.objects[a] -= 1
                if self.objects[a] <= 0:
                    del self.objects[a]
        return pred

    def set_template(self, key: str, template: str) -> Predicate:
        """Give `name/arity` an NL template (declaring it if new); "" removes the template."""
        name, arity = parse_key(key)
        template = check_template(f"{name}/{arity}", arity, template)
        pred = self.predicates.get(f"{name}/{arity}")
        if pred is None:
            pred = self.predicates[f"{name}/{arity}"] = Predicate(name, arity)
        pred.template = template
        return pred

    def merge(self, old_key: str, into_key: str) -> Predicate:
        """Fold `old_key`'s counts (and template, if `into_key` has none) into `into_key`.

        The caller rewrites the stored clauses; when it has already moved them, `old_key`
        is gone and there is nothing left to move."""
        (old_name, old_arity), (name, arity) = parse_key(old_key), parse_key(into_key)
        if old_arity != arity:
            raise UserError(f"cannot merge {old_key} into {into_key}: the arities differ")
        old_key, into_key = f"{old_name}/{old_arity}", f"{name}/{arity}"
        if old_key == into_key:
            return self.predicates.get(into_key) or Predicate(name, arity)
        if old_key not in self.predicates and into_key not in self.predicates:
            raise UserError(f"unknown predicate {old_key}", hint="/schema lists predicates")
        old = self.predicates.pop(old_key, None)
        into = self.predicates.get(into_key)
        if into is None:
            into = self.predicates[into_key] = Predicate(name, arity)
        if old is not None:
            into.count += old.count
            into.template = into.template or old.template
        return into

    # -- persistence ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {"predicates": [{"name": p.name, "arity": p.arity, "template": p.template, "count": p.count}
                               for p in self.predicates.values()],
                "objects": dict(self.objects)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Schema:
        try:
            preds: dict[str, Predicate] = {}
            for d in data.get("predicates", []):
                name, arity, count = d["name"], d["arity"], d.get("count", 0)
                if not isinstance(name, str) or not name or type(arity) is not int or arity < 0 \
                        or type(count) is not int:
                    raise ValueError(f"bad predicate entry {d!r}")
                key = f"{name}/{arity}"
                preds[key] = Predicate(name, arity, check_template(key, arity, d.get("template", "")), count)
            objects = data.get("objects", {})
            if not all(isinstance(k, str) and type(v) is int for k, v in objects.items()):
                raise ValueError("bad objects table")
        except (AttributeError, KeyError, TypeError, ValueError, UserError) as err:
            raise SchemaDataError(f"schema data does not read back: {str(err).splitlines()[0][:120]}",
                                  hint="the saved schema is damaged; templates can be set again") from None
        return cls(preds, objects)

    # -- near duplicates -----------------------------------------------------------

    def near_duplicates(self, name: str, arity: int, embedder: Embedder | None = None, *,
                        threshold: float = DUPLICATE_THRESHOLD) -> list[tuple[Predicate, float, str]]:
        """Existing predicates that look like `name/arity` under another name, best first,
        as (predicate, score in [0, 1], reason). `name/arity` itself never matches."""
        me, key = _Name.of(name), f"{name}/{arity}"
        found: list[tuple[Predicate, float, str]] = []
        pending: list[tuple[Predicate, _Name, float, float]] = []  # need the embedding
        table = self.predicates
        # with no content word in common a name scores at most the spelling's and the meaning's
        # weights: below the threshold, only names sharing a word or all the letters are compared
        unrelated_can_match = threshold <= _W_RATIO + _W_COSINE
        for pred in (table.values() if unrelated_can_match else table.near(me)):
            if pred.key == key:
                continue
            other = table.names.get(pred.key) or _Name.of(pred.name)
            if other.letters == me.letters:
                if pred.arity == arity:
                    found.append((pred, 1.0, "same letters"))
                elif SAME_LETTERS_OTHER_ARITY >= threshold:
                    found.append((pred, SAME_LETTERS_OTHER_ARITY, f"same letters, arity {pred.arity}"))
                continue
            if pred.arity != arity:
                continue
            union = me.content | other.content
            overlap = len(me.content & other.content) / len(union) if union else 0.0
            lexical = _W_OVERLAP * overlap + _W_RATIO * difflib.SequenceMatcher(None, me.letters, other.letters).ratio()
            if lexical + _W_COSINE >= threshold:  # else not even a perfect cosine would lift it
                pending.append((pred, other, lexical, 0.0))
        if pending:
            vectors = self._embed(embedder, [me.text] + [other.text for _, other, _, _ in pending])
            for (pred, _, lexical, _), vector in zip(pending, vectors[1:]):
                meaning = _W_COSINE * max(0.0, cosine(vectors[0], vector))
                score = round(min(1.0, lexical + meaning), 4)
                if score >= threshold:
                    semantic = not isinstance(embedder or _hash(), HashEmbedder)
                    reason = "similar meaning" if semantic and meaning > lexical else "similar name"
                    found.append((pred, score, reason))
        found.sort(key=lambda f: (-f[1], f[0].key))
        return found

    def _embed(self, embedder: Embedder | None, texts: list[str]) -> list[list[float]]:
        embedder = embedder or _hash()
        missing = list(dict.fromkeys(t for t in texts if (embedder.name, t) not in self._vectors))
        if missing:
            for text, vector in zip(missing, embedder.embed(missing)):
                self._vectors[(embedder.name, text)] = vector
        return [self._vectors[(embedder.name, t)] for t in texts]


def _hash() -> HashEmbedder:
    global _default_embedder
    if _default_embedder is None:
        _default_embedder = HashEmbedder()
    return _default_embedder
