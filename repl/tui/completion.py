"""The completion menu under the transcript, and the lines of an open block shown as typed.

Candidates come from the registry (`Registry.complete`, and the command an input such as `?- …`
routes to); a candidate replaces the word being typed, never adds to it. These widgets only show
things: the input line (entry.py) decides when, and what a key does.
"""

from __future__ import annotations

from textual.widgets import OptionList, Static

from sym.repl.arguments import last_word


def candidates(shell, text: str) -> list[str]:
    """Completions of the word being typed at the end of `text`, each once, in the registry's order."""
    if shell is None or "\n" in text:
        return []
    if text.startswith("/"):
        found = shell.registry.complete(shell.ctx, text)
    else:
        from sym.repl.route import route

        name, _ = route(text)
        cmd = shell.registry.get(name) if name.startswith("/") and text.lstrip().startswith("?-") else None
        found = cmd.complete(shell.ctx, text) if cmd is not None else []
    return list(dict.fromkeys(found))


def replace_word(text: str, candidate: str) -> str:
    """`text` with its last word (the one being typed; none after a space) replaced by `candidate`."""
    return text[:len(text) - len(last_word(text))] + candidate


class CompletionMenu(OptionList):
    """The candidates for the word being typed; shown only when there are two or more."""

    DEFAULT_CSS = """
    CompletionMenu { display: none; height: auto; max-height: 8; margin: 0 1; border: none; padding: 0 1;
                     background: $boost; }
    CompletionMenu.-open { display: block; }
    """
    can_focus = False

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.base = ""                  # the input as typed when the menu opened: candidates replace its last word
        self.items: list[str] = []

    @property
    def is_open(self) -> bool:
        return self.has_class("-open")

    def offer(self, base: str, found: list[str]) -> None:
        """Show `found` for the input `base` (two or more), else close."""
        if len(found) < 2:
            self.close()
            return
        if found != self.items or not self.is_open:
            self.clear_options()
            self.add_options(found)
            self.items = found
        self.base = base
        self.highlighted = None
        self.add_class("-open")

    def close(self) -> None:
        self.remove_class("-open")
        self.items = []
        self.highlighted = None

    def move(self, step: int) -> str | None:
        """Highlight the next (step 1) or previous (-1) candidate, wrapping; returns it."""
        if not self.items:
            return None
        at = self.highlighted
        at = (0 if step > 0 else len(self.items) - 1) if at is None else (at + step) % len(self.items)
        self.highlighted = at
        return self.items[at]

    def _on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A click on a candidate takes it, as Enter does (the input line decides what that means)."""
        event.stop()
        if event.option_index < len(self.items):
            self.parent.query_one("Entry").take(self.items[event.option_index])

    @property
    def chosen(self) -> str | None:
        return self.items[self.highlighted] if self.is_open and self.highlighted is not None else None


class BlockLines(Static):
    """The lines of an open `\"\"\"` block or unfinished clause, dim, above the input; hidden when none."""

    DEFAULT_CSS = """
    BlockLines { display: none; color: $text-muted; margin: 0 2; height: auto; }
    BlockLines.-open { display: block; }
    """

    SHOWN = 10

    def show_lines(self, lines: list[str]) -> None:
        from rich.text import Text

        more = [f"… {len(lines) - self.SHOWN} lines before"] if len(lines) > self.SHOWN else []
        self.update(Text("\n".join(more + lines[-self.SHOWN:])))      # Text: a typed `[b]` is no markup
        self.set_class(bool(lines), "-open")
