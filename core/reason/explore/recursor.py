"""The recursor: depth-first OR-then-AND expansion of a topic into a propositional Horn program.

For a goal, the OR prompt invents alternatives (`goal :- alternative.`), the AND prompt the
sub-goals of each (`alternative :- sub1, sub2.`); sub-goals are expanded in turn until the
depth runs out, and the goals left there are abducibles that a refiner keeps (facts) or
rejects (`goal :- fail.`). Every node is emitted as a TraceNode as it is made. The recursor
never touches memory or a screen; all model calls go through the model client of its run.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from string import Template
from typing import TYPE_CHECKING, Any

from sym.core.errors import Cancelled, UserError
from sym.core.llm import LLMError
from sym.core.logic.horn import HornModel
from sym.core.reason.explore.items import atom_of, clean_label, parse_items
from sym.core.reason.explore.program import AND, CONSTRAINT, FACT, FAIL, GROUND, OR, SUPPORT, ExploredProgram, Node
from sym.core.reason.explore.refiners import Leaf, OracleRefiner, RaterRefiner, Refiner, Search, TruthRefiner, Verdict

if TYPE_CHECKING:
    from sym.core.run import Run

MAX_DEPTH = 6
DEFAULT_SYSTEM = ("You help explore a topic step by step. Answer with a short plain list, one item per line, "
                  "without numbering, explanations or any other text.")
GOAL, ALT, LEAF, REJECTED = "explore.and", "explore.or", "explore.leaf", "explore.rejected"


@dataclass(frozen=True)
class Prompter:
    """A pack of prompt templates ($g goal, $context path, $topic top goal, $n item count)."""

    name: str
    or_prompt: str
    and_prompt: str
    oracle: str | None = None
    rater: str | None = None
    constraint: str | None = None
    system: str | None = None
    or_items: int = 3
    and_items: int = 4


@dataclass
class Exploration:
    """What one /explore made: the tree, the program, its model and counts."""

    run: str
    topic: str
    top: str                                   # the top goal's atom
    prompter: str
    depth: int
    refine: str | None
    program: ExploredProgram
    nodes: list[Node]
    labels: dict[str, str]                     # atom -> the phrase as first seen
    model: HornModel
    stats: Counter[str] = field(default_factory=Counter)
    answered: bool = True                      # False: the model's reply for the top goal held no usable item

    @property
    def top_holds(self) -> bool:
        return self.answered and self.top in self.model.model

    @property
    def status(self) -> str:
        if not self.answered:
            return "unknown (the model's reply held no usable items)"
        if not self.model.consistent:
            n = len(self.model.violated)
            return f"inconsistent ({n} integrity constraint{'s' if n != 1 else ''} violated)"
        return "holds" if self.top_holds else "does not hold"


def _fill(template: str, **values: object) -> str:
    return Template(template).safe_substitute({k: str(v) for k, v in values.items()}).strip()


class Recursor:
    """Explores one topic. `refine` is None, "truth" (needs `search`), "oracle" or "rater";
    `threshold` is the least similarity (truth) or probability (rater) a leaf needs."""

    def __init__(self, topic: str, prompter: Prompter, run: Run, *, depth: int = 2, refine: str | None = None,
                 threshold: float = 0.5, k: int = 3, search: Search | None = None) -> None:
        if not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
            raise UserError(f"depth must be a whole number from 1 to {MAX_DEPTH}, not {depth!r}")
        self.topic, self.prompter, self.run = clean_label(topic), prompter, run
        self.depth, self.run_id = depth, run.id
        self.refiner = self._refiner(refine, threshold, k, search)
        self.program = ExploredProgram()
        self.nodes: list[Node] = []
        self.labels: dict[str, str] = {}
        self.expanded: set[str] = set()          # goals whose OR step or AND step was asked for
        self.verdicts: dict[str, Verdict] = {}
        self.stats: Counter[str] = Counter()
        self._ids = 0
        self.answered = True

    def _refiner(self, refine: str | None, threshold: float, k: int, search: Search | None) -> Refiner | None:
        if refine is None:
            return None
        if refine == "truth":
            if search is None:
                raise UserError("the truth refiner needs a memory to compare with")
            return TruthRefiner(search, threshold=threshold, k=k)
        if refine == "oracle":
            return OracleRefiner(self.ask, self.prompter.oracle, self.prompter.constraint)
        if refine == "rater":
            return RaterRefiner(self.ask, self.prompter.rater, threshold=threshold)
        raise UserError(f"unknown refiner {refine!r}", hint="--refine truth|oracle|rater")

    # -- model calls ------------------------------------------------------------------

    def ask(self, prompts: list[str], purpose: str, system: str | None = None) -> list[str]:
        """Replies to independent prompts, in order (in parallel when the llm can)."""
        if not prompts:
            return []
        self.run.check()
        batches = [([{"role": "system", "content": system}] if system else []) + [{"role": "user", "content": p}]
                   for p in prompts]
        try:
            llm = self.run.llm
            replies = llm.chat_many(batches, purpose=purpose) if len(batches) > 1 else \
                [llm.chat(b, purpose=purpose) for b in batches]
        except LLMError as err:
            if err.reason == "cancelled":
                raise Cancelled() from None
            raise
        self.stats["llm calls"] += len(replies)
        self.stats["cached"] += sum(1 for r in replies if getattr(r, "cached", False))
        return [r.text for r in replies]

    # -- the tree -----------------------------------------------------------------------

    def _node(self, parent: str | None, kind: str, atom: str, label: str, status: str, detail: str = "",
              node_id: str | None = None) -> str:
        if node_id is None:
            self._ids += 1
            node_id = f"n{self._ids}"
        self.labels.setdefault(atom, label)
        node = Node(node_id, parent, kind, atom, label, status, detail)
        self.nodes.append(node)
        self.run.trace(node_id, parent, kind, label, detail, status)
        return node_id

    def explore(self) -> Exploration:
        top = atom_of(self.topic)
        if not top:
            raise UserError("nothing to explore", hint='/explore "causes of inflation" --depth 2')
        root = self._node(None, GOAL, top, self.topic, "goal", "top goal")
        self._expand(top, self.topic, root, [self.topic], frozenset({top}), self.depth)
        self._constraints()
        model = self.program.model()
        self.stats["merged clauses"] += self.program.merged
        refine = self.refiner.name if self.refiner is not None else None
        return Exploration(self.run_id, self.topic, top, self.prompter.name, self.depth, refine, self.program,
                           self.nodes, self.labels, model, self.stats, self.answered)

    def _expand(self, g: str, label: str, node: str, path: list[str], on_path: frozenset[str], depth: int) -> None:
        """OR step for goal g, AND step for each new alternative, then recurse (depth >= 1)."""
        p = self.prompter
        self.expanded.add(g)
        context = " > ".join(path)
        (reply,) = self.ask([_fill(p.or_prompt, g=label, context=context, topic=self.topic, n=p.or_items)],
                            "explore.or", p.system or DEFAULT_SYSTEM)
        alts = self._items(reply, p.or_items, on_path, node, ALT)
        if not alts and len(path) == 1:
            # an empty or garbage reply about the topic itself is no evidence for it: nothing is assumed
            self.answered = False
            self.stats["unusable replies"] += 1
            self._node(None, GOAL, g, label, "unanswered", "the model's reply held no usable items", node_id=node)
            return
        if not alts:
            self._abduce([(g, label)], node, context, {g: node})
            return
        fresh: list[tuple[str, str, str]] = []
        for atom, alt in alts:
            self.program.add(g, (atom,), OR)
            if atom in self.expanded:
                self._node(node, ALT, atom, alt, "seen", "expanded elsewhere in the tree")
                self.stats["seen"] += 1
                continue
            self.expanded.add(atom)
            fresh.append((atom, alt, self._node(node, ALT, atom, alt, "alternative")))
        replies = self.ask([_fill(p.and_prompt, g=alt, context=context, topic=self.topic, n=p.and_items)
                            for _, alt, _ in fresh], "explore.and", p.system or DEFAULT_SYSTEM)
        for (atom, alt, alt_node), reply in zip(fresh, replies):
            self.run.check()
            subs = self._items(reply, p.and_items, on_path | {atom}, alt_node, GOAL)
            if not subs:
                self._abduce([(atom, alt)], node, context, {atom: alt_node})
                continue
            self.program.add(atom, tuple(b for b, _ in subs), AND)
            if depth == 1:
                self._abduce([s for s in subs if not self._seen(s, alt_node)], alt_node, f"{context} > {alt}")
                continue
            for b, sub in subs:
                if self._seen((b, sub), alt_node):
                    continue
                sub_node = self._node(alt_node, GOAL, b, sub, "goal")
                self._expand(b, sub, sub_node, [*path, alt, sub], on_path | {atom, b}, depth - 1)

    def _items(self, reply: str, limit: int, on_path: frozenset[str], parent: str, kind: str) -> list[tuple[str, str]]:
        """The usable items of a reply: garbage lines and repeats dropped, items already on the
        path from the top goal shown as loops and dropped, at most `limit` kept."""
        parsed = parse_items(reply)
        self.stats["ignored lines"] += len(parsed.ignored)
        self.stats["repeated items"] += parsed.repeats
        out: list[tuple[str, str]] = []
        for atom, label in parsed.items:
            if atom in on_path:
                self._node(parent, kind, atom, label, "loop", "already on the path from the top goal")
                self.stats["loops"] += 1
            elif len(out) < limit:
                out.append((atom, label))
            else:
                self.stats["extra items"] += 1
        return out

    def _seen(self, item: tuple[str, str], parent: str) -> bool:
        atom, label = item
        if atom in self.expanded:
            self._node(parent, GOAL, atom, label, "seen", "expanded elsewhere in the tree")
            self.stats["seen"] += 1
            return True
        return False

    # -- abducibles -------------------------------------------------------------------------

    def _abduce(self, leaves: list[tuple[str, str]], parent: str | None, context: str,
                node_ids: dict[str, str] | None = None) -> None:
        """Leaves become facts, supported facts or failing clauses, as the refiner decides.
        A goal with nothing to expand is re-emitted under its own node id as a leaf."""
        node_ids = node_ids or {}
        todo = [Leaf(a, lbl, context) for a, lbl in leaves if a not in self.verdicts]
        if todo:
            if self.refiner is None:
                verdicts = [Verdict(True, None, None, "assumed (depth limit)") for _ in todo]
            else:
                self.run.check()
                verdicts = self.refiner.appraise(todo, self.topic)
            for leaf, verdict in zip(todo, verdicts):
                self.verdicts[leaf.atom] = verdict
                self._clauses_for(leaf.atom, verdict)
        for atom, label in leaves:
            v = self.verdicts[atom]
            kind = LEAF if v.kept else REJECTED
            detail = v.detail + (f"; supported by: {v.support}" if v.support else "")
            status = "kept" if v.kept else "rejected"
            known = node_ids.get(atom)
            parent_of = next((n.parent for n in self.nodes if n.id == known), parent) if known else parent
            self._node(parent_of, kind, atom, label, status, detail, node_id=known)

    def _clauses_for(self, atom: str, v: Verdict) -> None:
        if v.flag:
            self.stats[f"{v.flag} answers"] += 1
        if not v.kept:
            self.program.add(atom, (), FAIL)
            self.stats["rejected"] += 1
            return
        self.stats["kept"] += 1
        support = atom_of(v.support) if v.support else ""
        if support and support != atom:
            self.labels.setdefault(support, v.support or support)   # v.support is set: `support` came from it
            self.program.add(atom, (support,), SUPPORT, v.prob)
            self.program.add(support, (), GROUND)
        else:
            self.program.add(atom, (), FACT, v.prob)

    def _constraints(self) -> None:
        """Integrity constraints from an oracle that can name items that exclude each other."""
        ask = getattr(self.refiner, "constraints", None)
        if ask is None:
            return
        kept = {a: self.labels.get(a, a) for a, v in self.verdicts.items() if v.kept}
        self.run.check()
        for a, b in ask(kept, self.topic):
            if self.program.add(None, (a, b), CONSTRAINT):
                self.stats["constraints"] += 1


def explore(topic: str, prompter: Prompter, run: Run, **kwargs: Any) -> Exploration:
    """Explore `topic` with `prompter` to `depth` (see Recursor for the keyword arguments)."""
    return Recursor(topic, prompter, run, **kwargs).explore()
