"""The Trace tab: a tree of runs (rounds of /ask, proofs of /why, attempts of /prove, cores of /check,
nodes of /explore), the policies applied to each and its LLM calls.

Built only from TraceNode, LLMCall and PolicyApplied events; it never asks a reasoner anything. A run is
labelled with the input that started it, a step with words (repl/tui/trace_words.py), and Enter on any
line opens its whole text, wrapped, in the pager (a tree line is one screen line).
"""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Tree

from sym.core.events import LLMCall, PolicyApplied, TraceNode
from sym.core.routes import Routes
from sym.repl.tui.pager import PagerScreen
from sym.repl.tui.trace_words import first_line, purpose_words, run_word, step_word

_STATUS_STYLE = {"ok": "green", "proved": "green", "applied": "green", "derived": "green", "asserted": "green",
                 "failed": "red", "refuted": "red", "rejected": "red", "inconsistent": "red", "clash": "red",
                 "absent": "red", "unknown": "yellow", "cancelled": "yellow", "unverified": "yellow",
                 "overridden": "yellow", "elided": "dim"}
POLICY = "policy"     # the kind of the TraceNode that describes a PolicyApplied (both come for one application)


DETAIL_WIDTH = 200     # a detail line's characters shown in the tree (Enter shows all)


def node_label(kind: str, label: str, status: str) -> Text:
    word = step_word(kind)
    text = Text(label)
    if word and not label.startswith(word + " "):     # "policy 'x' set …" says what it is already
        text = Text.assemble((word + " ", "dim"), text)
    if status:
        text.append(f"  [{status}]", style=_STATUS_STYLE.get(status, "bold"))
    return text


class TracePane(Tree):
    """Runs are roots; a node whose parent is not known yet hangs from its run."""

    DEFAULT_CSS = "TracePane { height: 1fr; }"
    BINDINGS = [Binding("enter", "open_step", "Read the line in full", show=False),
                Binding("space", "toggle_node", "Fold or unfold", show=False)]

    def __init__(self, **kwargs) -> None:
        super().__init__("runs", **kwargs)
        self.show_root = False
        self.runs: dict[str, object] = {}
        self.nodes: dict[tuple[str, str], object] = {}
        self.details: dict[tuple[str, str], object] = {}   # a node's detail leaf
        self.job_label = ""        # the input of the running command, for LLM calls outside any run
        self.current_run: str | None = None
        self.policies: dict[str, list] = {}   # run -> its PolicyApplied nodes no policy TraceNode has described yet
        self._routes = Routes({TraceNode: self._node, LLMCall: self._call, PolicyApplied: self._policy})

    def start_job(self, text: str) -> None:
        self.job_label, self.current_run = text, None

    def _run(self, run: str, word: str | None = None):
        """A run's root: the input that started it, and what kind of work it is."""
        if run not in self.runs:
            for old in self.runs.values():
                old.collapse()
            word = word or run_word(run)
            label = Text(first_line(self.job_label) or word, style="bold")
            if self.job_label:
                label.append(f"  · {word}", style="dim")
            self.runs[run] = self.root.add(label, expand=True, data=f"{self.job_label}\n({word})".strip())
        return self.runs[run]

    def action_open_step(self) -> None:
        """Enter: the line under the cursor, its label and detail in full, wrapped, in the pager."""
        node = self.cursor_node
        if node is None:
            return
        text = node.data if isinstance(node.data, str) else node.label.plain
        self.app.push_screen(PagerScreen("trace", text.splitlines() or [""], wrap=True))

    def apply(self, event: object) -> None:
        """Show one trace event (routed by its type: `_routes`)."""
        self._routes(event)

    def _node(self, event: TraceNode) -> None:
        self.current_run = event.run
        key = (event.run, event.node)
        label = node_label(event.kind, event.label, event.status)
        if key not in self.nodes and event.kind == POLICY and self.policies.get(event.run):
            self.nodes[key] = self.policies[event.run].pop(0)     # the application just shown, in words
        node = self.nodes.get(key)
        if node is not None:       # a node sent again (a leaf judged, a goal solved): update it in place
            node.set_label(label)
            node.data = _full(label, event.detail)
            self._detail(key, node, event.detail)
            return
        parent = self.nodes.get((event.run, event.parent)) if event.parent is not None else None
        node = (parent or self._run(event.run)).add(label, expand=True, data=_full(label, event.detail))
        self.nodes[key] = node
        self._detail(key, node, event.detail)

    def _call(self, event: LLMCall) -> None:
        where = self._run(self.current_run) if self.current_run else self._job_node()
        what = "cached" if event.cached else f"{event.seconds:.2f} s"
        tokens = f"{event.prompt_tokens}+{event.completion_tokens} tokens"
        status = "failed" if event.error else ""
        text = node_label("model", f"{purpose_words(event.purpose)} · {event.model} · {tokens} · {what}", status)
        leaf = where.add_leaf(text, data=_full(text, event.error))
        if event.error:
            leaf.set_label(Text.assemble(text, (f"  {event.error}", "red")))

    def _policy(self, event: PolicyApplied) -> None:
        self.current_run = event.run
        changes = ", ".join(f"{k}={v}" for k, v in event.changes.items()) or "nothing"
        label = node_label(POLICY, f"'{event.rule}' ({event.target}) set {changes}", "applied")
        node = self._run(event.run).add(label, expand=True, data=label.plain)
        self.policies.setdefault(event.run, []).append(node)

    def _detail(self, key: tuple[str, str], node, detail: str) -> None:
        """A node's detail is its first child, a dim leaf; replaced (or added) when it changes."""
        leaf = self.details.get(key)
        shown = _cut(detail)
        if leaf is not None:
            leaf.set_label(Text(shown, style="dim"))
            leaf.data = detail
        elif detail:
            self.details[key] = node.add_leaf(Text(shown, style="dim"), before=0 if node.children else None,
                                              data=detail)

    def _job_node(self):
        """Model calls of a command that traces no run of its own hang from one root for the input."""
        key = f"job: {self.job_label}"
        self.current_run = key
        return self._run(key, "model calls")


def _full(label: Text, detail: str) -> str:
    return f"{label.plain}\n{detail}" if detail else label.plain


def _cut(detail: str) -> str:
    """A detail as its tree line shows it: the first line, at most DETAIL_WIDTH characters."""
    lines = detail.splitlines() or [""]
    line = lines[0]
    if len(line) > DETAIL_WIDTH or len(lines) > 1:
        return line[:DETAIL_WIDTH] + " … (Enter: all)"
    return line
