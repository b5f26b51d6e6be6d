"""The Trace tab: a tree of runs (rounds of /ask, proofs of /why, attempts of /prove, cores of /check,
nodes of /explore), the policies applied to each and its LLM calls.

Built only from TraceNode, LLMCall and PolicyApplied events; it never asks a reasoner anything.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Tree

from sym.core.events import LLMCall, PolicyApplied, TraceNode

_STATUS_STYLE = {"ok": "green", "proved": "green", "applied": "green", "derived": "green", "asserted": "green",
                 "failed": "red", "refuted": "red", "rejected": "red", "inconsistent": "red", "clash": "red",
                 "absent": "red", "unknown": "yellow", "cancelled": "yellow", "unverified": "yellow",
                 "overridden": "yellow", "elided": "dim"}
POLICY = "policy"     # the kind of the TraceNode that describes a PolicyApplied (both come for one application)


def node_label(kind: str, label: str, status: str) -> Text:
    text = Text(label)
    if kind and not label.startswith(kind + " "):     # "policy 'x' set …" says what it is already
        text = Text.assemble((kind + " ", "dim"), text)
    if status:
        text.append(f"  [{status}]", style=_STATUS_STYLE.get(status, "bold"))
    return text


class TracePane(Tree):
    """Runs are roots; a node whose parent is not known yet hangs from its run."""

    DEFAULT_CSS = "TracePane { height: 1fr; }"

    def __init__(self, **kwargs) -> None:
        super().__init__("runs", **kwargs)
        self.show_root = False
        self.runs: dict[str, object] = {}
        self.nodes: dict[tuple[str, str], object] = {}
        self.details: dict[tuple[str, str], object] = {}   # a node's detail leaf
        self.job_label = ""        # the input of the running command, for LLM calls outside any run
        self.current_run: str | None = None
        self.policies: dict[str, list] = {}   # run -> its PolicyApplied nodes no policy TraceNode has described yet

    def start_job(self, text: str) -> None:
        self.job_label, self.current_run = text, None

    def _run(self, run: str):
        if run not in self.runs:
            for old in self.runs.values():
                old.collapse()
            self.runs[run] = self.root.add(Text(run, style="bold"), expand=True)
        return self.runs[run]

    def apply(self, event: object) -> None:
        if isinstance(event, TraceNode):
            self.current_run = event.run
            key = (event.run, event.node)
            label = node_label(event.kind, event.label, event.status)
            if key not in self.nodes and event.kind == POLICY and self.policies.get(event.run):
                self.nodes[key] = self.policies[event.run].pop(0)     # the application just shown, in words
            node = self.nodes.get(key)
            if node is not None:       # a node sent again (a leaf judged, a goal solved): update it in place
                node.set_label(label)
                self._detail(key, node, event.detail)
                return
            parent = self.nodes.get((event.run, event.parent)) if event.parent is not None else None
            node = (parent or self._run(event.run)).add(label, expand=True)
            self.nodes[key] = node
            self._detail(key, node, event.detail)
        elif isinstance(event, LLMCall):
            where = self._run(self.current_run) if self.current_run else self._job_node()
            what = "cached" if event.cached else f"{event.seconds:.2f} s"
            tokens = f"{event.prompt_tokens}+{event.completion_tokens} tokens"
            status = "failed" if event.error else ""
            text = node_label("llm", f"{event.purpose} · {event.model} · {tokens} · {what}", status)
            leaf = where.add_leaf(text)
            if event.error:
                leaf.set_label(Text.assemble(text, (f"  {event.error}", "red")))
        elif isinstance(event, PolicyApplied):
            self.current_run = event.run
            changes = ", ".join(f"{k}={v}" for k, v in event.changes.items()) or "nothing"
            node = self._run(event.run).add(node_label(POLICY, f"'{event.rule}' ({event.target}) set {changes}", "applied"),
                                            expand=True)
            self.policies.setdefault(event.run, []).append(node)

    def _detail(self, key: tuple[str, str], node, detail: str) -> None:
        """A node's detail is its first child, a dim leaf; replaced (or added) when it changes."""
        leaf = self.details.get(key)
        if leaf is not None:
            leaf.set_label(Text(detail, style="dim"))
        elif detail:
            self.details[key] = node.add_leaf(Text(detail, style="dim"), before=0 if node.children else None)

    def _job_node(self):
        key = f"job: {self.job_label}"[:60]
        self.current_run = key
        return self._run(key)
