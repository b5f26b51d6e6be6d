"""/resume gives back what a session told, as it was told: each item with its source and the
English it came from, one item per memory event (a log that says otherwise is refused, naming the
event); /sessions names every workspace a session worked in."""

from __future__ import annotations

import json

import pytest

from sym.repl.dispatcher import MemoryOptions, open_shell
from sym.repl.render import to_text
from sym.repl.results import Failure, Message
from sym.sessions.log import FORMAT


def told(memory) -> dict[str, tuple[str, str]]:
    return {it.text: (it.nl, it.source) for it in memory.items.values()}


def write_log(sym_home, name: str, events: list[dict]) -> None:
    header = {"t": "header", "seq": 1, "format": FORMAT, "workspace": "default", "settings": {}, "started": 0}
    folder = sym_home / "sessions"
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.jsonl").write_text("".join(json.dumps(e) + "\n" for e in [header, *events]))


@pytest.fixture
def sym(shells):
    """A shell on workspaces (resume needs them): type one input, get its result."""
    shell = shells()

    def run(text: str):
        return shell.execute(text)[1]
    run.shell = shell
    return run


def added(seq: int, iid: str, text: str, source: str, **more) -> dict:
    return {"t": "memory", "seq": seq, "op": "add", "input": None, "id": iid, "kind": "fact", "text": text,
            "source": source, "workspace": "default", **more}


def test_resume_keeps_the_english_and_the_source_of_told_items(sym_home):
    first = open_shell(MemoryOptions("work"))
    try:
        assert first.execute("/tell Ann is a teacher.")[1].ok
        assert first.execute("/tell Bob is a doctor.")[1].ok
        first.execute("p(a).")
        before = told(first.memory)
        assert before["teacher(ann)."] == ("Ann is a teacher.", "tell")
        first.execute("/save told")
    finally:
        first.close()
    second = open_shell(MemoryOptions())
    try:
        result = second.execute("/resume told --fresh")[1]
        assert isinstance(result, Message), result
        assert told(second.memory) == before
        assert "% Ann is a teacher." in to_text(second.execute("/listing teacher")[1])
    finally:
        second.close()


def test_resume_takes_the_english_from_the_results_of_a_log_written_before_events_kept_it(sym, sym_home):
    write_log(sym_home, "older", [
        {"t": "input", "seq": 2, "text": "/tell Ann is a teacher.", "source": "typed"},
        added(3, "fa4cbf9bb2026", "teacher(ann).", "tell"),
        {"t": "output", "seq": 4, "input": 2, "result": {"command": "/tell", "ok": True, "kind": "told", "added": [
            {"id": "fa4cbf9bb2026", "kind": "fact", "text": "teacher(ann).", "nl": "Ann is a teacher.",
             "source": "tell"}]}},
    ])
    assert sym("/resume older --fresh").ok
    assert told(sym.shell.memory) == {"teacher(ann).": ("Ann is a teacher.", "tell")}


def test_each_memory_event_becomes_its_own_item_with_its_own_source(sym, sym_home):
    write_log(sym_home, "three", [added(2, "f1", "p(a).", "first.pl:1", nl="A is p."),
                                  added(3, "f2", "q(b).", "second.pl:4"),
                                  added(4, "f3", "r(c).", "third.pl:9", nl="C is r.")])
    assert sym("/resume three --fresh").ok
    assert told(sym.shell.memory) == {"p(a).": ("A is p.", "first.pl:1"), "q(b).": ("", "second.pl:4"),
                                      "r(c).": ("C is r.", "third.pl:9")}


def test_a_memory_event_holding_two_clauses_is_refused_naming_its_seq(sym, sym_home):
    # zipping the parsed clauses with the events dropped the last item and shifted every source after
    write_log(sym_home, "two", [added(2, "f1", "p(a). q(b).", "first.pl:1"), added(3, "f2", "r(c).", "second.pl:4")])
    sym("s(d).")
    result = sym("/resume two")
    assert isinstance(result, Failure) and "seq 2" in result.message and "2 clauses" in result.message, result
    assert "internal error" not in result.message and "\n" not in result.message
    assert [it.text for it in sym.shell.memory.items.values()] == ["s(d)."]      # nothing changed
    write_log(sym_home, "bad", [added(2, "f1", "p(a", "first.pl:1")])
    result = sym("/resume bad")
    assert isinstance(result, Failure) and "seq 2" in result.message, result


def test_sessions_names_every_workspace_a_session_used(sym_home):
    shell = open_shell(MemoryOptions())
    try:
        shell.execute("p(a).")
        shell.execute("/workspace other")
        shell.execute("/workspace rm nowhere --yes")       # names a workspace it never worked in
        shell.execute("/workspace third")
        shell.execute("q(b).")
        shell.execute("/save roaming")
        row = next(r for r in shell.execute("/sessions")[1].rows if r[0] == "roaming")
        assert "workspaces default, other, third" in row[2] and "nowhere" not in row[2], row
    finally:
        shell.close()
    one = open_shell(MemoryOptions("solo"))
    try:
        one.execute("p(a).")
        one.execute("/save homebody")
        row = next(r for r in one.execute("/sessions")[1].rows if r[0] == "homebody")
        assert "workspace solo" in row[2] and "workspaces" not in row[2], row
    finally:
        one.close()
