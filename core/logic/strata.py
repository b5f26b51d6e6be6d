"""Stratification: order relations so every `not` looks only at finished relations.

Builds the predicate dependency graph of a rule set, finds its strongly connected
components, rejects a program whose negation runs through a cycle (naming the cycle),
and numbers strata by the longest chain of negative edges. `Strata` keeps that numbering for a
growing rule set, updated from the rules added where they close no new cycle.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable, Iterator

from sym.core.errors import StratificationError
from sym.core.logic.terms import Rule, literal_keys


def _edges(rules: list[Rule]) -> dict[str, list[tuple[str, bool]]]:
    """head -> [(body relation, negative?)]"""
    graph: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    for rule in rules:
        if rule.head is None:
            continue
        for lit in rule.body:
            graph[rule.head.key] += literal_keys(lit)
    return graph


def _components(nodes: list[str], graph: dict[str, list[tuple[str, bool]]]) -> list[list[str]]:
    """Tarjan's SCCs, iteratively; returned dependencies-first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(graph.get(root, ())))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child, _neg in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph.get(child, ()))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    comp.append(member)
                    if member == node:
                        break
                out.append(comp)
    return out


def _cycle(graph: dict[str, list[tuple[str, bool]]], start: str, via: str, members: set[str]) -> list[str]:
    """The path via -> … -> start inside one component, to name the offending cycle."""
    parent: dict[str, str | None] = {via: None}
    queue = deque([via])
    while queue:
        node = queue.popleft()
        if node == start:
            break
        for child, _neg in graph.get(node, ()):
            if child in members and child not in parent:
                parent[child] = node
                queue.append(child)
    path: list[str] = []
    at: str | None = start
    while at is not None:
        path.append(at)
        at = parent.get(at)
    return path[::-1]


def stratify(rules: list[Rule]) -> dict[str, int]:
    """Relation key -> stratum number (0 = needs nothing negated). Raises StratificationError."""
    return _stratified(rules)[0]


Graph = dict[str, list[tuple[str, bool]]]
Stratified = tuple[dict[str, int], Graph, list[list[str]]]


def _stratified(rules: list[Rule]) -> Stratified:
    """`stratify`'s numbering, with the graph and the components it was read from."""
    graph = _edges(rules)
    nodes = sorted(set(graph) | {b for deps in graph.values() for b, _ in deps})
    stratum: dict[str, int] = {}
    components = _components(nodes, graph)
    for comp in components:
        members = set(comp)
        for head in comp:
            for body, neg in graph.get(head, ()):
                if neg and body in members:
                    shown = " -> ".join([head] + _cycle(graph, head, body, members))
                    raise StratificationError(
                        f"not stratifiable: {head} depends on 'not {body}' (or an aggregate over it) "
                        f"through the cycle {shown}",
                    )
        level = 0
        for head in comp:
            for body, neg in graph.get(head, ()):
                if body not in members:
                    level = max(level, stratum.get(body, 0) + (1 if neg else 0))
        for head in comp:
            stratum[head] = level
    return stratum, graph, components


def _rule_edges(rules: Iterable[Rule]) -> Iterator[tuple[str, str, bool]]:
    """(head, body relation, negative?) for every body atom of the rules with heads."""
    for rule in rules:
        if rule.head is None:
            continue
        head = rule.head.key
        for lit in rule.body:
            for key, whole in literal_keys(lit):
                yield head, key, whole


class Strata:
    """`stratify` of a rule set that grows: the numbering (`levels`, relation -> stratum) and the
    graph's cycles, kept. Rules added that close no new cycle (a head nobody reads yet, a body of
    relations that do not depend on the head) only raise the strata of what reads their heads, if
    that; any other addition, and a large one, stratifies the whole program again."""

    def __init__(self, rules: Iterable[Rule] = ()) -> None:
        self.levels: dict[str, int] = {}
        self._rules: list[Rule] = []
        self._reads: dict[str, list[str]] = {}                    # head -> body relations
        self._readers: dict[str, list[tuple[str, bool]]] = {}    # body relation -> (head, negative?)
        self._cycle: dict[str, frozenset[str]] = {}              # member of a cycle -> all its members
        self._edges = 0
        self._checked: tuple[list[Rule], Stratified | None] | None = None
        rules = list(rules)
        self._rebuild(rules, _stratified(rules))

    def _rebuild(self, rules: list[Rule], found: Stratified) -> None:
        self.levels, graph, components = found
        self._rules = rules
        self._reads = {head: [body for body, _ in deps] for head, deps in graph.items()}
        self._readers = {}
        for head, deps in graph.items():
            for body, neg in deps:
                self._readers.setdefault(body, []).append((head, neg))
        self._edges = sum(map(len, graph.values()))
        self._cycle = {m: frozenset(comp) for comp in components if len(comp) > 1 for m in comp}

    def check(self, rules: Iterable[Rule]) -> None:
        """Raise StratificationError if adding `rules` would make the program unstratifiable
        (what was found is kept for an `add` of the same rules next)."""
        rules = list(rules)
        self._checked = (rules, self._restratified(rules))

    def add(self, rules: Iterable[Rule]) -> None:
        """Add rules, all or nothing (StratificationError before any change)."""
        rules = list(rules)
        checked, self._checked = self._checked, None
        found = checked[1] if checked is not None and checked[0] == rules else self._restratified(rules)
        if found is not None:
            self._rebuild([*self._rules, *rules], found)
            return
        self._rules.extend(rules)
        lifts: list[tuple[str, int]] = []
        for head, body, neg in _rule_edges(rules):
            self._reads.setdefault(head, []).append(body)
            self._readers.setdefault(body, []).append((head, neg))
            self._edges += 1
            self.levels.setdefault(head, 0)
            self.levels.setdefault(body, 0)
            if not self._inside(head, body):
                lifts.append((head, self.levels[body] + neg))
        for head, level in lifts:
            self._lift(head, level)

    def _inside(self, head: str, body: str) -> bool:
        """Whether an edge head -> body lies within one cycle (or is a loop)."""
        return head == body or head in self._cycle.get(body, ())

    def _lift(self, node: str, level: int) -> None:
        """Raise `node` (with its cycle) to at least `level`, and whatever reads it after it."""
        work = [(node, level)]
        while work:
            node, level = work.pop()
            if level <= self.levels[node]:
                continue
            members = self._cycle.get(node, frozenset((node,)))
            for m in members:
                self.levels[m] = level
            for m in members:
                work += [(reader, level + neg) for reader, neg in self._readers.get(m, ()) if reader not in members]

    def _restratified(self, rules: list[Rule]) -> Stratified | None:
        """The numbering of the program with `rules` added where they may close a new cycle
        (stratified whole: raises where it is not stratifiable); None where they close none and
        the numbering is updated from their edges."""
        new = list(_rule_edges(rules))
        if len(new) * 4 > self._edges:     # a large addition (or a small program): stratified whole
            return _stratified([*self._rules, *rules])
        down: dict[str, list[str]] = {}
        up: dict[str, list[str]] = {}
        for head, body, _neg in new:
            down.setdefault(head, []).append(body)
            up.setdefault(body, []).append(head)
        for head, body, neg in new:
            if self._inside(head, body) and not neg:
                continue
            if neg and self._inside(head, body) or self._reaches(body, head, down, up):
                return _stratified([*self._rules, *rules])
        return None

    def _reaches(self, start: str, goal: str, down: dict[str, list[str]], up: dict[str, list[str]]) -> bool:
        """Whether `start` depends on `goal` through the graph and the new edges (`down`: head ->
        bodies, `up`: body -> heads). Searched from both ends a step at a time, so that the end
        with less behind it settles it: a head nothing reads yet costs one step."""
        below, above = [start], [goal]
        seen_below, seen_above = {start}, {goal}
        while below and above:
            node = below.pop()
            for nxt in (*self._reads.get(node, ()), *down.get(node, ())):
                if nxt in seen_above:
                    return True
                if nxt not in seen_below:
                    seen_below.add(nxt)
                    below.append(nxt)
            node = above.pop()
            for nxt in (*(h for h, _ in self._readers.get(node, ())), *up.get(node, ())):
                if nxt in seen_below:
                    return True
                if nxt not in seen_above:
                    seen_above.add(nxt)
                    above.append(nxt)
        return False
