"""The Memory tab: facts, rules, schema and documents as tables, and a detail box for the selected row.

Rows change on ItemAdded / ItemRemoved events; a full reload (reading memory, never
reasoning over it) happens only when the workspace itself changes.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Static, TabbedContent, TabPane

from core.events import ItemAdded, ItemRemoved

MAX_ROWS = 2000  # a DataTable of 100k rows is slow to build; /listing shows everything


class MemoryPane(Vertical):
    DEFAULT_CSS = """
    MemoryPane { height: 1fr; }
    MemoryPane TabbedContent { height: 1fr; }
    MemoryPane DataTable { height: 1fr; }
    MemoryPane #detail { height: auto; max-height: 12; border-top: solid $primary; padding: 0 1; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.memory = None
        self.store_docs = lambda: []      # set by the app: () -> list of DocumentInfo

    def compose(self) -> ComposeResult:
        with TabbedContent(id="memory-tabs"):
            with TabPane("Facts", id="mem-facts"):
                yield DataTable(id="facts", cursor_type="row", zebra_stripes=True)
            with TabPane("Rules", id="mem-rules"):
                yield DataTable(id="rules", cursor_type="row", zebra_stripes=True)
            with TabPane("Schema", id="mem-schema"):
                yield DataTable(id="schema", cursor_type="row", zebra_stripes=True)
            with TabPane("Docs", id="mem-docs"):
                yield DataTable(id="docs", cursor_type="row", zebra_stripes=True)
        yield Static("select a row to see its natural-language form, source and provenance", id="detail")

    COLUMNS = {"facts": ("id", "fact", "source"), "rules": ("id", "rule", "source"),
               "schema": ("predicate", "uses", "template"), "docs": ("document", "chunks", "path")}

    def on_mount(self) -> None:
        for name in self.COLUMNS:
            self._table(name)

    def _table(self, name: str) -> DataTable:
        """A table with its columns (added on first use: rows may arrive before on_mount ran,
        and a row added to a table without columns gets columns sized to that row)."""
        table = self.query_one(f"#{name}", DataTable)
        if not table.columns:
            table.add_columns(*self.COLUMNS[name])
        return table

    def table(self, kind: str) -> DataTable:
        return self._table("facts" if kind == "fact" else "rules")

    # -- keeping up with memory ---------------------------------------------------

    def load(self, memory, docs=None) -> None:
        """Show a (new) workspace's memory from scratch."""
        self.memory = memory
        for name in ("facts", "rules"):
            self._table(name).clear()
        for it in memory.items.values():
            self._add_row(it.id, it.kind, it.text, it.source)
        self.refresh_schema()
        self.refresh_docs(docs)

    def apply(self, event: object) -> None:
        if isinstance(event, ItemAdded):
            self._add_row(event.item_id, event.kind, event.text, event.source)
        elif isinstance(event, ItemRemoved):
            table = self.table(event.kind)
            if event.item_id in table.rows:
                table.remove_row(event.item_id)

    def _add_row(self, iid: str, kind: str, text: str, source: str) -> None:
        table = self.table(kind)
        if iid not in table.rows and table.row_count < MAX_ROWS:
            table.add_row(iid, Text(text), Text(source), key=iid)
            # size the columns now rather than on the table's next idle (a screen drawn in
            # between would show them at their labels' width)
            for column, cell in zip(table.ordered_columns, (iid, text, source)):
                column.content_width = max(column.content_width, cell_len(cell))

    def refresh_schema(self) -> None:
        table = self._table("schema")
        table.clear()
        if self.memory is None:
            return
        for p in sorted(self.memory.schema.predicates.values(), key=lambda p: p.key):
            table.add_row(p.key, p.count, Text(p.template or ""), key=p.key)

    def refresh_docs(self, docs=None) -> None:
        table = self._table("docs")
        table.clear()
        for d in docs if docs is not None else self.store_docs():
            table.add_row(Text(d.name), d.chunks, Text(str(d.path)), key=d.name)

    # -- the detail box ---------------------------------------------------------------

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        key = event.row_key.value if event.row_key is not None else None
        if key is None or self.memory is None:
            return
        if self.query_one("#memory-tabs", TabbedContent).active != f"mem-{event.data_table.id}":
            return  # a hidden table refilled after a command: keep the user's selection
        self.query_one("#detail", Static).update(Text(self.describe(event.data_table.id, key)))

    def describe(self, table: str | None, key: str) -> str:
        memory = self.memory
        if table in ("facts", "rules"):
            it = memory.items.get(key)
            if it is None:
                return f"{key}: no longer in memory"
            lines = [f"{it.kind} {it.id}: {it.text}", f"in words: {it.nl or _in_words(memory, it)}",
                     f"source: {it.source}"]
            lines.append(_provenance(memory, it))
            return "\n".join(lines)
        if table == "schema":
            p = memory.schema.predicates.get(key)
            if p is None:
                return f"{key}: no longer in the schema"
            return f"{p.key}: used by {p.count} stored clauses\ntemplate: {p.template or '(none: /schema template)'}"
        return f"document {key}"


def _in_words(memory, it) -> str:
    from core.logic.terms import Atom

    if isinstance(it.clause, Atom):
        p = memory.schema.predicates.get(f"{it.clause.pred}/{len(it.clause.args)}")
        if p is not None and p.template:
            return p.render(it.clause.args)
    return "(no natural-language form)"


def _provenance(memory, it) -> str:
    """Where it came from (read from memory, never computed: /why runs the reasoner)."""
    if it.kind == "fact":
        return f"provenance: asserted by {it.source}; /why {it.text.rstrip('.')} shows its proof"
    return f"provenance: stated by {it.source}; /why on a fact it derives shows it in use"
