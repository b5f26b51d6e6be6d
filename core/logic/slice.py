"""The dependency graph of a rule set, read for what one question needs: the slice of relations
a set of relations depends on, the relations a change can reach, and which relations occur under
`not` (where adding facts is not monotone). This room only reads rules; it evaluates nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

from sym.core.logic.terms import Aggregate, Is, Literal, Rule, literal_keys


def body_keys(body: Iterable[Literal]) -> list[tuple[str, bool]]:
    """(relation, read whole?) for every atom of a body, in order: True under `not` or inside an
    aggregate, which need the relation finished."""
    return [pair for lit in body for pair in literal_keys(lit)]


class Dependencies:
    """Who reads whom among the rules with heads (constraints are read by nobody)."""

    def __init__(self, rules: dict[str, Rule]) -> None:
        self.rules = rules
        self.by_head: dict[str, list[tuple[str, Rule]]] = {}
        self.reads: dict[str, set[str]] = {}        # head -> relations its bodies read
        self.readers: dict[str, set[str]] = {}      # relation -> heads of rules reading it
        self.negated: set[str] = set()              # relations some rule reads under `not`
        self.position: dict[str, int] = {}          # rule id -> where it was given among the rules with heads
        self._read(rules)

    def added(self, rules: dict[str, Rule]) -> None:
        """Rules just added to `rules` (under new ids): who reads whom, brought up to date."""
        self._read(rules)

    def _read(self, rules: dict[str, Rule]) -> None:
        for rid, rule in rules.items():
            if rule.head is None:
                continue
            head = rule.head.key
            self.position.setdefault(rid, len(self.position))
            self.by_head.setdefault(head, []).append((rid, rule))
            reads = self.reads.setdefault(head, set())
            for key, neg in body_keys(rule.body):
                reads.add(key)
                self.readers.setdefault(key, set()).add(head)
                if neg:
                    self.negated.add(key)

    def derived(self, key: str) -> bool:
        return key in self.by_head

    def closure(self, keys: Iterable[str]) -> set[str]:
        """The relations `keys` depend on, themselves included (the slice a question needs)."""
        out = set(keys)
        stack = list(out)
        while stack:
            for body in self.reads.get(stack.pop(), ()):
                if body not in out:
                    out.add(body)
                    stack.append(body)
        return out

    def upward(self, keys: Iterable[str]) -> set[str]:
        """The relations a change to `keys` can change, themselves included."""
        out = set(keys)
        stack = list(out)
        while stack:
            for head in self.readers.get(stack.pop(), ()):
                if head not in out:
                    out.add(head)
                    stack.append(head)
        return out

    def monotone(self, keys: Iterable[str]) -> bool:
        """Whether adding facts to `keys` only adds to the model: nothing they reach is read
        under `not`, so semi-naive rounds may go on from the new facts."""
        return not (self.upward(keys) & self.negated)

    def rules_for(self, keys: Iterable[str]) -> dict[str, Rule]:
        """The rules deriving any of `keys`, by id, in the order they were given."""
        found = [entry for key in set(keys) for entry in self.by_head.get(key, ())]
        position = self.position
        return dict(sorted(found, key=lambda entry: position[entry[0]]))

    def computes_through_recursion(self, rule: Rule) -> bool:
        """Whether a rule puts a computed value (`is`, an aggregate's result) in its head and
        reads what its head derives: such a rule can derive new numbers without end."""
        if rule.head is None:
            return False
        computed = {lit.target for lit in rule.body if isinstance(lit, Is)}
        computed |= {v for lit in rule.body if isinstance(lit, Aggregate) for v in lit.results()}
        if not computed & set(rule.head.variables()):
            return False
        return rule.head.key in self.closure(key for key, _ in body_keys(rule.body))
