"""A table of memory items (id, text, source) that draws only the rows on screen.

Adding or removing an item is a dict update; the widget catches up once per batch (its size,
its scrollbar, the lines in view), so a bulk add of thousands costs the UI one repaint, not a
widget row each. It knows nothing of memory or events: the Memory pane feeds it.
"""

from __future__ import annotations

from math import ceil

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar
from textual.strip import Strip
from textual.widget import Widget


def _width(text: str) -> int:
    return len(text) if text.isascii() else cell_len(text)


class ItemTable(ScrollView, can_focus=True):
    """Rows keyed by item id, in the order they came; a header row stays on top and a row cursor
    picks one (posting `RowHighlighted`)."""

    COMPONENT_CLASSES = {"item-table--header", "item-table--cursor", "item-table--even-row"}
    DEFAULT_CSS = """
    ItemTable {
        background: $surface;
        color: $foreground;
        overflow: scroll scroll;    /* always there: the first screenful of rows moves nothing else */
        &:focus {
            background-tint: $foreground 5%;
            & > .item-table--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
            & > .item-table--header { background-tint: $foreground 5%; }
        }
        &:dark > .item-table--even-row { background: $surface-darken-1 40%; }
        & > .item-table--header { text-style: bold; background: $panel; color: $foreground; }
        & > .item-table--even-row { background: $surface-lighten-1 50%; }
        & > .item-table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
    }
    """
    BINDINGS = [
        Binding("up", "cursor_up", "Cursor up", show=False),
        Binding("down", "cursor_down", "Cursor down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("home,ctrl+home", "first", "First", show=False),
        Binding("end,ctrl+end", "last", "Last", show=False),
        Binding("left", "scroll_left", "Scroll left", show=False),
        Binding("right", "scroll_right", "Scroll right", show=False),
        Binding("enter", "act('explain')", "Explain the row (/why)", show=False),
        Binding("delete", "act('forget')", "Forget the row (asks first)", show=False),
        Binding("c", "act('copy')", "Copy the row's id", show=False),
        Binding("slash", "act('filter')", "Filter the rows", show=False),
    ]

    class Act(Message):
        """The user asked for something on the row under the cursor: explain, forget or copy."""

        def __init__(self, table: ItemTable, key: str, what: str) -> None:
            super().__init__()
            self.table, self.key, self.what = table, key, what

    def action_act(self, what: str) -> None:
        if what == "filter" or self.keys:
            self.post_message(self.Act(self, self.keys[self.cursor_row] if self.keys else "", what))

    class RowHighlighted(Message):
        """The cursor is on the row of `key` (an item id)."""

        def __init__(self, table: ItemTable, key: str) -> None:
            super().__init__()
            self.table = table
            self.key = key

        @property
        def control(self) -> ItemTable:
            return self.table

    def __init__(self, labels: tuple[str, str, str], **kwargs) -> None:
        super().__init__(**kwargs)
        self.labels = labels
        self.rows: dict[str, tuple[str, str]] = {}   # id -> (text, source), in the order shown
        self._keys: list[str] = []                   # shown rows' ids by position; rebuilt after a removal
        self.filter = ""                             # shown: rows whose id, text or source contain it
        self._stale = False
        self._widths = [_width(label) for label in labels]
        self._shown = 0            # rows the widget has been sized for
        self._synced_widths = list(self._widths)
        self._pending = False      # a catch-up is scheduled
        self.cursor_row = 0
        self._line_styles = (Style(),) * 4   # base, header, even row, cursor: taken per repaint

    # -- rows (no drawing here: `_sync` catches up once per batch) --------------------------

    @property
    def row_count(self) -> int:
        return len(self.rows)

    def add_row(self, key: str, text: str, source: str) -> None:
        if key in self.rows:
            return
        self.rows[key] = (text, source)
        if not self._stale and (not self.filter or self._matches(key)):
            self._keys.append(key)
        widths = self._widths
        if len(text) > widths[1] or not text.isascii():
            widths[1] = max(widths[1], _width(text))
        if len(source) > widths[2] or not source.isascii():
            widths[2] = max(widths[2], _width(source))
        if len(key) > widths[0]:
            widths[0] = _width(key)
        if not self._pending:     # tested here, not in a call: this runs once per item of a bulk add
            self._changed()

    def remove_row(self, key: str) -> None:
        if self.rows.pop(key, None) is not None:
            self._stale = True
            self._changed()

    def clear(self) -> None:
        self.rows.clear()
        self._keys.clear()
        self._stale = False
        self._widths = [_width(label) for label in self.labels]
        self.cursor_row = 0
        self._shown = 0            # what comes next is drawn (and its first row highlighted) anew
        self.refresh()
        self._changed()

    def get_row(self, key: str) -> list[str]:
        text, source = self.rows[key]
        return [key, text, source]

    def get_row_at(self, index: int) -> list[str]:
        return self.get_row(self.keys[index])

    @property
    def keys(self) -> list[str]:
        """The shown rows' ids by position (all of them without a filter)."""
        if self._stale:
            self._keys = [k for k in self.rows if self._matches(k)] if self.filter else list(self.rows)
            self._stale = False
        return self._keys

    def _matches(self, key: str) -> bool:
        text, source = self.rows[key]
        return self.filter in key or self.filter in text.lower() or self.filter in source.lower()

    def set_filter(self, text: str) -> None:
        """Show only the rows whose id, text or source contain `text` (case ignored); "" shows all."""
        self.filter = text.strip().lower()
        self._stale = True
        self.cursor_row = 0
        self.scroll_to(y=0, animate=False, immediate=True)
        self._sync()
        self.refresh()
        self._highlighted()

    def _changed(self) -> None:
        """Schedule one catch-up for everything changed until it runs."""
        if not self._pending and self.is_attached:
            self._pending = True
            self.call_later(self._sync)

    def _size_updated(self, size, virtual_size, container_size, layout: bool = True) -> bool:
        # ScrollView redraws both scrollbars after every screen-wide layout, resized or not (it
        # compares its own container size with its parent's); only a new size changes them
        if size == self.size and self.styles.gutter.totals == self.size - self.container_size:
            return False
        return super()._size_updated(size, virtual_size, container_size, layout)

    def on_mount(self) -> None:
        self._sync()      # rows put in before it was mounted (ScrollView's own on_mount runs too)

    def _sync(self) -> None:
        """Catch up with the rows: size, scrollbar, cursor, and the lines in view if they changed."""
        self._pending = False
        count, shown = len(self.keys), self._shown
        self._shown = count
        size, old = Size(sum(self._widths) + 2 * len(self._widths), count + 1), self.virtual_size
        # a view at the end of rows past the screen follows new ones (not an empty or short table's:
        # a bulk add into one shows its first rows)
        following = self.max_scroll_y > 0 and self.scroll_y >= self.max_scroll_y
        if size != old:
            # set without the reactive's layout: this widget's size comes from CSS, not from its rows,
            # and its scrollbars are always shown, so only they need telling (a screen-wide layout
            # per batch would cost more than the rows)
            self.set_reactive(Widget.virtual_size, size)
            if size.height != old.height:
                bar = self.vertical_scrollbar
                if self._thumb(old.height) == self._thumb(size.height):
                    # drawn the same (past a few hundred rows the thumb is one cell): no repaint
                    bar.set_reactive(ScrollBar.window_virtual_size, size.height)
                else:
                    bar.window_virtual_size = size.height
                self.scroll_y = self.max_scroll_y if following else self.validate_scroll_y(self.scroll_y)
            if size.width != old.width:
                self.horizontal_scrollbar.window_virtual_size = size.width
                self.scroll_x = self.validate_scroll_x(self.scroll_x)
        if self.cursor_row >= count:
            self.cursor_row = max(0, count - 1)
        first_in_view = int(self.scroll_y)
        in_view = first_in_view + self.scrollable_content_region.height - 1
        if self._widths != self._synced_widths or count < shown or shown < in_view:
            self._synced_widths = list(self._widths)
            self.refresh()
        if shown == 0 and count:      # the first rows: the cursor is on one now
            self._highlighted()

    def _thumb(self, lines: int) -> tuple[int, int]:
        """Where the vertical scrollbar draws its thumb for `lines` lines, in eighths of a cell
        (as textual.scrollbar.ScrollBarRender reckons it)."""
        bar = self.vertical_scrollbar
        size, window = bar.size.height, bar.window_size
        if not (size and window and lines) or window >= lines:
            return 0, 0
        thumb = max(1.0, window * size / lines)
        start = int((size - thumb) * self.scroll_y / (lines - window) * 8)
        return start, start + ceil(thumb * 8)

    # -- the cursor ----------------------------------------------------------------------

    def move_cursor(self, *, row: int) -> None:
        """Put the cursor on `row` (clamped), scroll it into view and say so."""
        if not self.keys:
            return
        self.cursor_row = max(0, min(row, len(self.keys) - 1))
        self._scroll_to_cursor()
        self.refresh()
        self._highlighted()

    def _highlighted(self) -> None:
        if self.keys:
            self.post_message(self.RowHighlighted(self, self.keys[self.cursor_row]))

    def _scroll_to_cursor(self) -> None:
        if self.virtual_size.height != len(self.keys) + 1:
            self._sync()                     # rows came since the last catch-up
        body = max(1, self.scrollable_content_region.height - 1)   # lines below the header
        top = int(self.scroll_y)
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False, immediate=True)
        elif self.cursor_row >= top + body:
            self.scroll_to(y=self.cursor_row - body + 1, animate=False, immediate=True)

    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height - 2)

    def action_cursor_up(self) -> None:
        self.move_cursor(row=self.cursor_row - 1)

    def action_cursor_down(self) -> None:
        self.move_cursor(row=self.cursor_row + 1)

    def action_page_up(self) -> None:
        self.move_cursor(row=self.cursor_row - self._page())

    def action_page_down(self) -> None:
        self.move_cursor(row=self.cursor_row + self._page())

    def action_first(self) -> None:
        self.move_cursor(row=0)

    def action_last(self) -> None:
        self.move_cursor(row=len(self.keys) - 1)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None and offset.y >= 1:
            self.move_cursor(row=offset.y - 1 + int(self.scroll_y))

    # -- drawing ---------------------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        self._line_styles = (self.rich_style, self.get_component_rich_style("item-table--header"),
                        self.get_component_rich_style("item-table--even-row"),
                        self.get_component_rich_style("item-table--cursor"))
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        base, header, even, cursor = self._line_styles
        scroll_x, scroll_y = self.scroll_offset
        width = self.size.width
        if y == 0:
            cells, style = self.labels, base + header
        else:
            index = y - 1 + scroll_y
            if index >= len(self.keys):
                return Strip.blank(width, base)
            key = self.keys[index]
            cells = (key, *self.rows[key])
            style = base + (cursor if index == self.cursor_row else even if index % 2 == 0 else Style())
        line = "".join(f" {_fit(cell, w)} " for cell, w in zip(cells, self._widths))
        length = sum(self._widths) + 2 * len(self._widths)
        return Strip([Segment(line, style)], length).crop_extend(scroll_x, scroll_x + width, style)


def _fit(text: str, width: int) -> str:
    if "\n" in text:
        text = text.replace("\n", " ")
    if text.isascii():
        return text.ljust(width)[:width]
    return set_cell_size(text, width)
