"""Stratification: order relations so every `not` looks only at finished relations.

Builds the predicate dependency graph of a rule set, finds its strongly connected
components, rejects a program whose negation runs through a cycle (naming the cycle),
and numbers strata by the longest chain of negative edges.
"""

from __future__ import annotations

from collections import defaultdict, deque

from sym.core.errors import StratificationError
from sym.core.logic.terms import Atom, Naf, Rule


def _edges(rules: list[Rule]) -> dict[str, list[tuple[str, bool]]]:
    """head -> [(body relation, negative?)]"""
    graph: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    for rule in rules:
        if rule.head is None:
            continue
        for lit in rule.body:
            if isinstance(lit, Atom):
                graph[rule.head.key].append((lit.key, False))
            elif isinstance(lit, Naf):
                graph[rule.head.key].append((lit.atom.key, True))
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
    graph = _edges(rules)
    nodes = sorted(set(graph) | {b for deps in graph.values() for b, _ in deps})
    stratum: dict[str, int] = {}
    for comp in _components(nodes, graph):
        members = set(comp)
        for head in comp:
            for body, neg in graph.get(head, ()):
                if neg and body in members:
                    shown = " -> ".join([head] + _cycle(graph, head, body, members))
                    raise StratificationError(
                        f"not stratifiable: {head} depends on 'not {body}' through the cycle {shown}",
                    )
        level = 0
        for head in comp:
            for body, neg in graph.get(head, ()):
                if body not in members:
                    level = max(level, stratum.get(body, 0) + (1 if neg else 0))
        for head in comp:
            stratum[head] = level
    return stratum
