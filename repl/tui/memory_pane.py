"""The Memory tab: facts, rules, schema and documents as tables, and a detail box for the selected row.

Rows change on ItemAdded / ItemRemoved, SchemaChanged and DocumentsChanged events; a full reload
happens only when the workspace itself changes (WorkspaceOpened, a snapshot taken on the shell's
thread). The pane never reads the shell's memory: what it shows and describes is what the events
carried. Facts and rules are ItemTables, which draw only the rows on screen; the schema and docs
tables are filled when their tab is opened. A bulk add is never UI work per item.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Input, Static, TabbedContent, TabPane

from sym.core.errors import UserError
from sym.core.events import DocumentsChanged, ItemAdded, ItemRemoved, SchemaChanged, WorkspaceOpened
from sym.core.memory.schema import Predicate
from sym.core.routes import Routes
from sym.repl.tui.item_table import ItemTable

KEY_TURNS = {"explain": "/why {}", "forget": "/forget {}"}   # what a row key types

DETAIL_LINES = 5   # the detail box's least lines (a fact's description in a narrow pane); it grows to 11
PLACEHOLDER = "select a row to see its natural-language form, source and provenance"


class MemoryPane(Vertical):
    DEFAULT_CSS = """
    MemoryPane { height: 1fr; }
    MemoryPane TabbedContent { height: 1fr; }
    MemoryPane DataTable, MemoryPane ItemTable { height: 1fr; }
    MemoryPane #mem-filter { height: 3; }
    MemoryPane #detail { height: auto; min-height: 6; max-height: 12; border-top: solid $primary; padding: 0 1; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.workspace: str | None = None      # the workspace shown (None until one opened)
        self._nl: dict[str, str] = {}           # natural-language forms the snapshot carried, by item id
        # every fact and rule has a row; only those on screen are drawn (see item_table)
        self.facts = ItemTable(("id", "fact", "source"), id="facts")
        self.rules = ItemTable(("id", "rule", "source"), id="rules")
        self._tables: dict[str, DataTable] = {}
        self._detail_lines = DETAIL_LINES
        # what the schema and docs tables show, kept here while their tabs are hidden
        self._schema: dict[str, tuple[int, str]] = {}
        self._docs: list = []
        self._unseen: set[str] = set()
        self._routes = Routes({
            ItemAdded: self._added,
            ItemRemoved: self._removed,
            SchemaChanged: lambda event: self.show_schema(event.predicates, event.removed),
            DocumentsChanged: lambda event: self.show_docs(event.documents),
        })
        self._forgetting: str | None = None    # the row Delete was pressed on once (asks first)
        self._detail_key: str | None = None    # the row the detail box is about

    def compose(self) -> ComposeResult:
        yield Input(placeholder="filter facts and rules (/ in a table)", id="mem-filter")
        with TabbedContent(id="memory-tabs"):
            with TabPane("Facts", id="mem-facts"):
                yield self.facts
            with TabPane("Rules", id="mem-rules"):
                yield self.rules
            with TabPane("Schema", id="mem-schema"):
                yield DataTable(id="schema", cursor_type="row", zebra_stripes=True)
            with TabPane("Docs", id="mem-docs"):
                yield DataTable(id="docs", cursor_type="row", zebra_stripes=True)
        yield Static(PLACEHOLDER, id="detail")

    COLUMNS = {"schema": ("predicate", "uses", "template"), "docs": ("document", "chunks", "path")}

    def on_mount(self) -> None:
        for name in self.COLUMNS:
            self._table(name)

    def _table(self, name: str) -> DataTable:
        """A table with its columns (added on first use: rows may arrive before on_mount ran,
        and a row added to a table without columns gets columns sized to that row)."""
        table = self._tables.get(name)
        if table is None:
            table = self._tables[name] = self.query_one(f"#{name}", DataTable)
        if not table.columns:
            for label in self.COLUMNS[name]:
                table.add_column(label, key=label)
        return table

    def table(self, kind: str) -> ItemTable:
        return self.facts if kind == "fact" else self.rules

    # -- keeping up with memory ---------------------------------------------------

    def load(self, opened: WorkspaceOpened) -> None:
        """Show a (new) workspace from scratch, from the snapshot its opening carried; the events
        that follow say what changed since."""
        self.workspace = opened.workspace
        self._forgetting = self._detail_key = None     # nothing of the old workspace stays in view
        self._set_detail(Text(PLACEHOLDER))
        self.facts.clear()
        self.rules.clear()
        self._nl = {it.item_id: it.nl for it in opened.items if it.nl}
        for it in opened.items:
            self.table(it.kind).add_row(it.item_id, it.text, it.source)
        self._schema.clear()
        self.show_schema(opened.predicates)
        self.show_docs(opened.documents)

    def apply(self, event: object) -> None:
        """Show what an event changed (routed by its type: `_routes`)."""
        self._routes(event)

    def _added(self, event: ItemAdded) -> None:     # thousands in a bulk add: a dict entry each, drawn once per batch
        self.table(event.kind).add_row(event.item_id, event.text, event.source)

    def _removed(self, event: ItemRemoved) -> None:
        table = self.table(event.kind)
        table.remove_row(event.item_id)
        self._nl.pop(event.item_id, None)
        if self._forgetting == event.item_id:
            self._forgetting = None
        if self._detail_key == event.item_id:    # the row described is gone: describe the one now there
            self._detail_key = None
            self.call_later(self._after_removal, table)

    def show_schema(self, predicates, removed=()) -> None:
        """Predicates changed (name/arity, uses, template) and the `removed` ones."""
        for key, uses, template in predicates:
            self._schema[key] = (uses, template or "")
        for key in removed:
            self._schema.pop(key, None)
        self._refill("schema")

    def show_docs(self, docs) -> None:
        """The documents now (core.memory.library.DocumentInfo, oldest first)."""
        self._docs = list(docs or ())
        self._refill("docs")

    def _refill(self, name: str) -> None:
        """Bring the schema or docs table up to date, or, while its tab is hidden, when it is opened:
        a DataTable's rows changing costs a screen-wide layout, seen or not."""
        if self.query_one("#memory-tabs", TabbedContent).active != f"mem-{name}":
            self._unseen.add(name)
            return
        self._unseen.discard(name)
        table = self._table(name)
        if name == "docs":
            table.clear()
            for d in self._docs:
                table.add_row(Text(d.name), d.chunks, Text(str(d.path)), key=d.name)
            return
        added = False      # rows are updated in place (the cursor stays), new ones added in order
        for row in [row for row in table.rows if row.value not in self._schema]:
            table.remove_row(row)
        for key, (uses, template) in self._schema.items():
            if key in table.rows:
                if table.get_cell(key, "uses") != uses or str(table.get_cell(key, "template")) != template:
                    table.update_cell(key, "uses", uses)
                    table.update_cell(key, "template", Text(template))
            else:
                table.add_row(key, uses, Text(template), key=key)
                added = True
        if added:
            table.sort("predicate")

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        name = (event.pane.id or "").removeprefix("mem-")
        if event.tabbed_content.id == "memory-tabs" and name in self._unseen:
            self._refill(name)

    def _after_removal(self, table: ItemTable) -> None:
        if self._detail_key is None:
            keys = table.keys
            if keys and self.query_one("#memory-tabs", TabbedContent).active == f"mem-{table.id}":
                table.move_cursor(row=table.cursor_row)     # says which row the cursor is on now
            else:
                self._set_detail(Text(PLACEHOLDER))

    # -- the detail box ---------------------------------------------------------------

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail(event.data_table.id, event.row_key.value if event.row_key is not None else None)

    def on_item_table_row_highlighted(self, event: ItemTable.RowHighlighted) -> None:
        self._forgetting = None
        self._show_detail(event.table.id, event.key)

    def on_input_changed(self, event: Input.Changed) -> None:
        """The filter: both tables show only rows containing it; its box says how many."""
        if event.input.id != "mem-filter":
            return
        event.stop()
        for table in (self.facts, self.rules):
            table.set_filter(event.value)
        counts = [(f"{len(t.keys):,}", f"{t.row_count:,}") for t in (self.facts, self.rules)]
        said = "showing {} of {} facts, {} of {} rules".format(*counts[0], *counts[1])
        if len(said) > event.input.size.width - 4:      # a narrow pane: the numbers, all of them
            said = "{}/{} facts, {}/{} rules".format(*counts[0], *counts[1])
        event.input.border_subtitle = said if event.value.strip() else ""

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "mem-filter":
            event.stop()
            tabs = self.query_one("#memory-tabs", TabbedContent)
            (self.rules if tabs.active == "mem-rules" else self.facts).focus()

    def on_item_table_act(self, event: ItemTable.Act) -> None:
        """Enter explains a fact (/why), Delete forgets the row once pressed twice, c copies its id,
        / goes to the filter box."""
        key, text = event.key, event.table.rows.get(event.key, ("", ""))[0]
        if event.what == "filter":
            self.query_one("#mem-filter", Input).focus()
        elif event.what == "copy":
            self.app.copy_to_clipboard(key)
            self._set_detail(Text(f"copied id {key}"), key)
        elif event.what == "explain":
            if event.table is self.facts:
                self.app.run_turn(KEY_TURNS["explain"].format(text.rstrip().removesuffix(".")))
            else:
                self._set_detail(Text(self.describe(event.table.id, key) + "\n(Enter explains facts: /why)"), key)
        elif event.what == "forget":
            if self._forgetting == key:
                self._forgetting = None
                self.app.run_turn(KEY_TURNS["forget"].format(key))
            else:
                self._forgetting = key
                self._set_detail(Text(f"forget {key}  {text}?\npress Delete again to forget it; any other row cancels"),
                                 key)

    def _show_detail(self, table: str | None, key: str | None) -> None:
        if key is None or self.workspace is None:
            return
        if self.query_one("#memory-tabs", TabbedContent).active != f"mem-{table}":
            return  # a hidden table refilled after a command: keep the user's selection
        self._set_detail(Text(self.describe(table, key)), key)

    def _set_detail(self, text: Text, key: str | None = None) -> None:
        """A description that fits the box as it is is only repainted: a change of its height is a
        screen-wide layout (the box keeps room for a fact's description, so selecting one, or the
        first row of a bulk add, needs none)."""
        self._detail_key = key
        found = self.query("#detail")
        if not found:       # not composed yet: it shows the placeholder when it is
            return
        detail = found.first(Static)
        width = detail.content_region.width
        lines = max(DETAIL_LINES, len(text.wrap(self.app.console, width))) if width else 0
        detail.update(text, layout=lines != self._detail_lines)
        self._detail_lines = lines

    def describe(self, table: str | None, key: str) -> str:
        """A row's description, from what the pane was shown (never from the shell's memory)."""
        if table in ("facts", "rules"):
            row = (self.facts if table == "facts" else self.rules).rows.get(key)
            if row is None:
                return f"{key}: no longer in memory"
            text, source = row
            kind = KINDS.get(key[:1], "fact")
            lines = [f"{kind} {key}: {text}", f"in words: {self._nl.get(key) or self._in_words(kind, text)}",
                     f"source: {source}", _provenance(kind, text, source)]
            return "\n".join(lines)
        if table == "schema":
            found = self._schema.get(key)
            if found is None:
                return f"{key}: no longer in the schema"
            uses, template = found
            return f"{key}: used by {uses} stored clauses\ntemplate: {template or '(none: /schema template)'}"
        return f"document {key}"

    def _in_words(self, kind: str, text: str) -> str:
        """A fact through its predicate's template (as the schema was last shown)."""
        if kind == "fact":
            from sym.core.logic.parser import parse_atom  # the grammar: loaded when a fact is first described

            try:
                atom = parse_atom(text.rstrip().removesuffix("."))
                key = f"{atom.pred}/{len(atom.args)}"
                template = self._schema.get(key, (0, ""))[1]
                if template:
                    return Predicate(atom.pred, len(atom.args), template).render(atom.args)
            except UserError:
                pass
        return "(no natural-language form)"


KINDS = {"f": "fact", "r": "rule", "c": "constraint"}     # an item id starts with its kind


def _provenance(kind: str, text: str, source: str) -> str:
    """Where it came from (what the row says, never computed: /why runs the reasoner)."""
    if kind == "fact":
        return f"provenance: asserted by {source}; /why {text.rstrip('.')} shows its proof"
    return f"provenance: stated by {source}; /why on a fact it derives shows it in use"
