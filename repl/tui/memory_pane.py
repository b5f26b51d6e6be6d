"""The Memory tab: facts, rules, schema and documents as tables, and a detail box for the selected row.

Rows change on ItemAdded / ItemRemoved, SchemaChanged and DocumentsChanged events; a full reload
(reading memory, never reasoning over it) happens only when the workspace itself changes
(WorkspaceOpened).
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Static, TabbedContent, TabPane

from sym.core.events import DocumentsChanged, ItemAdded, ItemRemoved, SchemaChanged

MAX_ROWS = 2000  # a DataTable of 100k rows is slow to build; /listing shows everything
PAGE = 100       # rows put in the facts or rules table at a time; more as it is scrolled to its end


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
        self._tables: dict[str, DataTable] = {}
        # rows past the table's page, in order, put in as it is scrolled: a bulk add of thousands
        # costs the UI (and so the shell's thread) a screenful of rows, not two thousand
        self._waiting: dict[str, dict[str, tuple[str, str]]] = {"facts": {}, "rules": {}}
        self._limit = {"facts": PAGE, "rules": PAGE}

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
            table = self._table(name)
            if name in self._waiting:
                self.watch(table, "scroll_y", self._on_scroll(name), init=False)

    def _table(self, name: str) -> DataTable:
        """A table with its columns (added on first use: rows may arrive before on_mount ran,
        and a row added to a table without columns gets columns sized to that row)."""
        table = self._tables.get(name)
        if table is None:       # found once: a query per row would cost a bulk add more than the row
            table = self._tables[name] = self.query_one(f"#{name}", DataTable)
        if not table.columns:
            for label in self.COLUMNS[name]:
                table.add_column(label, key=label)
        return table

    def table(self, kind: str) -> DataTable:
        return self._table("facts" if kind == "fact" else "rules")

    # -- keeping up with memory ---------------------------------------------------

    def load(self, memory, docs) -> None:
        """Show a (new) workspace's memory from scratch. What is read are copies taken at once:
        the shell's thread may be changing memory meanwhile, and its events follow to say how."""
        self.memory = memory
        for name in ("facts", "rules"):
            self._table(name).clear()
            self._waiting[name].clear()
            self._limit[name] = PAGE
        for it in list(memory.items.values()):
            self._add_row(it.id, it.kind, it.text, it.source)
        self._table("schema").clear()
        self.show_schema([(p.key, p.count, p.template) for p in list(memory.schema.predicates.values())])
        self.show_docs(docs)

    def apply(self, event: object) -> None:
        if isinstance(event, ItemAdded):
            self._add_row(event.item_id, event.kind, event.text, event.source)
        elif isinstance(event, ItemRemoved):
            name = "facts" if event.kind == "fact" else "rules"
            table = self._table(name)
            if self._waiting[name].pop(event.item_id, None) is None and event.item_id in table.rows:
                table.remove_row(event.item_id)
                self._fill(name)
        elif isinstance(event, SchemaChanged):
            self.show_schema(event.predicates, event.removed)
        elif isinstance(event, DocumentsChanged):
            self.show_docs(event.documents)

    def _add_row(self, iid: str, kind: str, text: str, source: str) -> None:
        name = "facts" if kind == "fact" else "rules"
        table, waiting = self._table(name), self._waiting[name]
        if iid in waiting or iid in table.rows:
            return
        if waiting or table.row_count >= self._limit[name]:
            if table.row_count + len(waiting) < MAX_ROWS:
                waiting[iid] = (text, source)
            return
        self._put_row(table, iid, text, source)

    @staticmethod
    def _put_row(table: DataTable, iid: str, text: str, source: str) -> None:
        table.add_row(iid, Text(text), Text(source), key=iid)
        # size the columns now rather than on the table's next idle (a screen drawn in
        # between would show them at their labels' width)
        for column, cell in zip(table.ordered_columns, (iid, text, source)):
            column.content_width = max(column.content_width, cell_len(cell))

    def _fill(self, name: str) -> None:
        """Move waiting rows into the table up to its page limit."""
        table, waiting = self._table(name), self._waiting[name]
        while waiting and table.row_count < self._limit[name]:
            iid = next(iter(waiting))
            text, source = waiting.pop(iid)
            self._put_row(table, iid, text, source)

    def _on_scroll(self, name: str):
        return lambda: self._scrolled(name)

    def _scrolled(self, name: str) -> None:
        """Near the end of a table with rows waiting: another page."""
        table = self._table(name)
        if self._waiting[name] and table.max_scroll_y - table.scroll_y <= table.size.height:
            self._limit[name] += PAGE
            self._fill(name)

    def show_schema(self, predicates, removed=()) -> None:
        """Rows for predicates (name/arity, uses, template), updated in place or added in order,
        and the `removed` ones taken out."""
        table = self._table("schema")
        added = False
        for key, uses, template in predicates:
            if key in table.rows:
                table.update_cell(key, "uses", uses)
                table.update_cell(key, "template", Text(template or ""))
            else:
                table.add_row(key, uses, Text(template or ""), key=key)
                added = True
        for key in removed:
            if key in table.rows:
                table.remove_row(key)
        if added:
            table.sort("predicate")

    def show_docs(self, docs) -> None:
        """The documents now (core.memory.library.DocumentInfo, oldest first)."""
        table = self._table("docs")
        table.clear()
        for d in docs or ():
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
    from sym.core.logic.terms import Atom

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
