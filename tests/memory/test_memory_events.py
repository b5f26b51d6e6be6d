"""Memory says what changed where it changes: documents, schema and workspaces emit their events,
and the schema saves itself with the change (no command saves it by hand)."""

from __future__ import annotations

from sym.core.events import DocumentsChanged, SchemaChanged, SettingChanged, WorkspaceOpened
from sym.core.logic.parser import parse_atom
from sym.core.memory.working import item_id
from sym.repl.dispatcher import MemoryOptions, open_shell


def shell_with_events(workspace: str = "default"):
    events: list = []
    shell = open_shell(MemoryOptions(workspace, background=False), emit=events.append, record=False)
    return shell, events


def of(events, kind) -> list:
    return [e for e in events if isinstance(e, kind)]


def test_opening_and_switching_workspaces_emit_what_they_hold(tmp_path):
    shell, events = shell_with_events()
    try:
        [opened] = of(events, WorkspaceOpened)
        assert (opened.workspace, opened.items, opened.documents) == ("default", (), ())   # a snapshot, not the memory
        shell.execute("p(a).")
        doc = tmp_path / "notes.md"
        doc.write_text("One.\n\nTwo.\n", encoding="utf-8")
        assert shell.execute(f"/load {doc}")[1].ok
        [changed] = of(events, DocumentsChanged)
        assert [(d.name, d.chunks) for d in changed.documents] == [("notes.md", 1)]
        shell.execute("/workspace other")
        shell.execute("/workspace default")
        last = of(events, WorkspaceOpened)[-1]
        assert (last.workspace, last.counts["fact"], [d.name for d in last.documents]) == ("default", 1, ["notes.md"])
        assert [(it.item_id, it.kind, it.text) for it in last.items] == [(item_id(parse_atom("p(a)")), "fact", "p(a).")]
    finally:
        shell.close()


def test_schema_changes_are_emitted_and_saved_with_the_change():
    shell, events = shell_with_events()
    try:
        shell.execute("located_in(rome, italy).")
        assert of(events, SchemaChanged)[-1].predicates == (("located_in/2", 1, ""),)
        assert shell.execute('/schema template located_in/2 "{0} is in {1}"')[1].ok
        assert of(events, SchemaChanged)[-1].predicates == (("located_in/2", 1, "{0} is in {1}"),)
        shell.execute("/set schema_merge off")
        assert of(events, SettingChanged)[-1] == SettingChanged("schema_merge", "off")
        shell.execute("located_at(paris, france).")
        assert shell.execute("/schema merge located_at/2 located_in/2 --yes")[1].ok
        last = of(events, SchemaChanged)[-1]
        assert (last.predicates, last.removed) == ((("located_in/2", 2, "{0} is in {1}"),), ("located_at/2",))
    finally:
        shell.close()
    again, _ = shell_with_events()
    try:
        assert again.memory.schema.predicates["located_in/2"].template == "{0} is in {1}"
        assert "located_at/2" not in again.memory.schema.predicates
    finally:
        again.close()


def test_a_bad_template_changes_nothing():
    shell, events = shell_with_events()
    try:
        shell.execute("likes(ann, bob).")
        before = len(of(events, SchemaChanged))
        assert not shell.execute('/schema template likes/2 "{0} likes {7}"')[1].ok
        assert shell.memory.schema.predicates["likes/2"].template == ""
        assert len(of(events, SchemaChanged)) == before
    finally:
        shell.close()
