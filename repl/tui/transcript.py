"""The transcript: each turn's input, its streamed LLM text (Markdown) and its result.

Results become words through `repl.render.to_text`, the same as in batch mode; a proof
(`/why`) is also drawn as a collapsible tree; a result longer than 200 lines shows its head and
a line that pages through the whole (repl/tui/pager.py). The transcript never runs anything.

It follows the end until the user scrolls up, and again once they scroll back to
the bottom or press Enter on a new input; a resize keeps what the user was reading at the top of the
view (or, following, the end) rather than the old scroll offset, which after a reflow shows other turns.
"""

from __future__ import annotations

from bisect import bisect_right

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

# results, rendering and memory load with the first result, not with the first paint


ECHO_LINES = 6         # a longer input (a paste) is echoed as its first lines and a count


def shorten(text: str, lines: int = 1) -> str:
    """An input as the transcript echoes it: its first `lines` lines, then how many more."""
    parts = text.split("\n")
    if len(parts) <= lines:
        return text
    return "\n".join(parts[:lines]) + f"\n… {len(parts) - lines} more lines ({len(parts)} in all)"


class Passage(Static):
    """A block of the transcript's text (an input, a note, a result)."""

    def _size_updated(self, size, virtual_size, container_size, layout: bool = True) -> bool:
        # a Static does not scroll, so its virtual size moves nothing else: taking it without the
        # reactive's layout saves the second screen-wide layout Textual runs for each new widget
        return super()._size_updated(size, virtual_size, container_size, layout=False)


class Transcript(VerticalScroll):
    """A scrolling log of turns; `stream` appends model text to the current turn as it arrives."""

    DEFAULT_CSS = """
    Transcript { height: 1fr; padding: 0 1; }
    Transcript > .input { color: $accent; text-style: bold; margin-top: 1; }
    Transcript > .result { color: $text; }
    Transcript > .error { color: $error; }
    Transcript > .note { color: $text-muted; text-style: italic; }
    Transcript > Markdown { padding: 0 0; margin: 0; }
    Transcript > Tree { height: auto; max-height: 20; background: $surface; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._stream = None
        self._markdown = None
        self.streamed = ""           # the text streamed into the current turn so far
        self._following = True
        self._top: tuple[object, float] | None = None   # scrolled up: the passage at the view's top, lines into it

    @property
    def following(self) -> bool:
        """Whether new output scrolls into view (the user has not scrolled up)."""
        return self._following

    def follow(self) -> None:
        """Follow the end again (a new input typed)."""
        self._following = True
        self.scroll_end(animate=False)

    def release_anchor(self) -> None:
        """Textual calls this on every scroll the user makes (keys, the wheel, the scrollbar) and on
        none of its own (a layout clamping the offset): where that scroll ends decides whether the
        transcript goes on following the end."""
        super().release_anchor()
        self.call_after_refresh(self._user_scrolled)

    def _check_anchor(self) -> None:      # the scrollbar let go
        super()._check_anchor()
        self._user_scrolled()

    def _user_scrolled(self) -> None:
        """At the bottom: follow the end. Above it: stay, and keep the passage at the view's top
        (and how far into it) for a resize."""
        y = self.scroll_y
        self._following = y >= self.max_scroll_y - 1
        if self._following or not self.children:
            self._top = None
            return
        tops = [child.virtual_region.y for child in self.children]
        i = max(0, bisect_right(tops, y) - 1)
        self._top = (self.children[i], y - tops[i])

    def _size_updated(self, size, virtual_size, container_size, layout: bool = True) -> bool:
        """Following, the view stays at the end through every layout that changes the content's
        height (a passage's size is known only at layout, after the scroll an add asked for)."""
        changed = super()._size_updated(size, virtual_size, container_size, layout)
        if changed and self._following and self.scroll_y != self.max_scroll_y:
            self.scroll_target_y = self.scroll_y = self.max_scroll_y
        return changed

    def on_resize(self) -> None:
        if self._following:
            self.call_after_refresh(self.scroll_end, animate=False)
        elif self._top is not None:
            self.call_after_refresh(self._keep, *self._top)

    def _keep(self, widget, into: float) -> None:
        """Scroll back to `widget`, `into` lines in (at most its height now), as it was before a resize."""
        if widget.is_attached and not self._following:
            y = widget.virtual_region.y + min(into, max(0, widget.virtual_region.height - 1))
            self.scroll_to(y=y, animate=False, immediate=True, release_anchor=False)

    def _add(self, widget) -> None:
        self.mount(widget)
        if self.following:
            self.scroll_end(animate=False)

    def add_input(self, text: str) -> None:
        self._add(Passage(Text("» " + text.replace("\n", "\n  ")), classes="input"))

    def add_note(self, text: str) -> None:
        self._add(Passage(Text(text), classes="note"))

    def add_result(self, result) -> None:
        """A command's Result, in the words batch mode prints (a proof also as a tree)."""
        from sym.core.logic.provenance import ABSENT
        from sym.repl.render import to_text
        from sym.repl.results import Failure, Proofs

        body = to_text(result)
        if isinstance(result, Proofs) and any(t.status != ABSENT for t in result.trees):
            self._add(proof_widget(result))
            body = body[body.index("rules used:"):] if "rules used:" in body else ""
        if body:
            from sym.repl.tui.pager import More, head

            shown, lines = head(body)
            failed = isinstance(result, Failure)
            style = "note" if failed and result.cancelled else "error" if failed else "result"   # cancelled is calm
            self._add(Passage(Text(shown), classes=style))
            if lines is not None:     # a long result: its head here, the whole text one keypress away
                self._add(More(f"{result.kind}: {len(lines):,} lines", lines, len(lines) - shown.count("\n") - 1))

    async def stream(self, text: str) -> None:
        """Append a chunk of model text to this turn's Markdown block."""
        if self._stream is None:
            from textual.widgets import Markdown  # markdown-it costs start-up time; only streams need it

            self._markdown = Markdown(classes="stream")
            await self.mount(self._markdown)
            self._stream = Markdown.get_stream(self._markdown)
            self.streamed = ""
        self.streamed += text
        await self._stream.write(text)
        if self.following:
            self.scroll_end(animate=False)

    async def end_stream(self) -> None:
        """Close the current turn's stream (the block stays)."""
        if self._stream is not None:
            await self._stream.stop()
        self._stream, self._markdown = None, None


def proof_widget(result):
    """A proof (a repl.results.Proofs) as an expanded Tree: one root per proved literal, premises below."""
    from textual.widgets import Tree

    tree = Tree("proof" if len(result.trees) == 1 else f"{len(result.trees)} proofs")
    tree.show_root = len(result.trees) > 1
    for node in result.trees:
        _grow(tree.root, node, result.items)
    tree.root.expand_all()
    return tree


def _grow(parent, node, items: dict) -> None:
    branch = parent.add(Text(_label(node, items)), expand=True)
    for child in node.children:
        _grow(branch, child, items)
    if not node.children:
        branch.allow_expand = False


def _label(node, items: dict) -> str:
    from sym.repl.render import proof_label  # one wording for proof trees in every front-end

    return proof_label(node, items)
