"""Schema care: a predicate of another arity is never proposed for a merge; /schema merge shows
what it would rewrite and asks first; /schema undo puts back the last merge exactly, after a
restart too, through memory's own add / remove (events, snapshot and session log follow)."""

from __future__ import annotations

import pytest

from sym.core.events import ItemAdded, ItemRemoved, SchemaChanged
from sym.repl.dispatcher import MemoryOptions, open_shell
from sym.repl.results import Added, Message
from sym.sessions.log import final_state, read_session
from tests.conftest import chroma_server, fails

KB = """
located_in(paris, france).
located_at(berlin, germany).
located_at(paris, france).
near(X, Y) :- located_at(X, C), located_at(Y, C).
:- located_at(X, X).
"""




def run(shell, line: str):
    return shell.execute(line)[1]


def state(memory) -> tuple:
    """Everything a merge and its undo touch: items as stored, and the schema."""
    items = {i: (it.kind, it.text, it.nl, it.source, it.created_at) for i, it in memory.items.items()}
    preds = {k: (p.count, p.template) for k, p in memory.schema.predicates.items()}
    return items, preds, dict(memory.schema.objects)


def same_but_the_last_bit_of_times(got: tuple, want: tuple) -> bool:
    """`state` equal, a created_at read back from a Chroma server allowed to differ in its last bit
    (the server's float round trip is not always exact: 1795764741.4547935 came back ...937)."""
    (items, *rest), (wanted, *wanted_rest) = got, want
    if rest != wanted_rest or set(items) != set(wanted):
        return False
    return all(items[i][:-1] == wanted[i][:-1] and abs(items[i][-1] - wanted[i][-1]) < 1e-3 for i in items)


def changes(events) -> list:
    return [e for e in events if isinstance(e, (ItemAdded, ItemRemoved, SchemaChanged))]


def in_order(memory) -> list[str]:
    """Item ids oldest first, as a reopened workspace reads them back."""
    return [it.id for it in sorted(memory.items.values(), key=lambda it: (it.created_at, it.id))]


def kb(shell) -> None:
    from sym.core.logic.parser import parse_one

    run(shell, "/set schema_merge off")
    assert run(shell, KB).ok
    # one item with an NL form and a source of its own: an undo must bring both back
    shell.memory.add([(parse_one("located_at(rome, italy)."), "notes.md:3")], nl="Rome lies in Italy.", merge="off")
    assert run(shell, '/schema template located_at/2 "{0} is at {1}"').ok


# -- never across arities ----------------------------------------------------------------------

def test_a_predicate_of_another_arity_is_pointed_out_but_never_proposed_for_a_merge(sym):
    sym("located_at(paris).")
    added = sym("located_at(berlin, germany).")
    assert isinstance(added, Added) and added.notes
    assert not any("/schema merge" in note for note in added.notes), added.notes
    assert any("located_at/1" in note and "arit" in note for note in added.notes)

    sym("/set schema_merge auto")                         # auto never renames across arities either
    assert sym("located_at(rome, italy).").items[0].text == "located_at(rome, italy)."
    fails(sym("/schema merge located_at/2 located_at/1"), "arities differ")
    fails(sym("/schema merge located_at/2 located_at/1 --yes"), "arities differ")
    assert {"located_at/1", "located_at/2"} <= set(sym.shell.memory.schema.predicates)


def test_with_a_same_arity_look_alike_too_the_proposal_names_that_one(sym):
    sym("located_at(paris). located_near(paris, lyon).")
    added = sym("located_at(berlin, germany).")
    proposals = [n for n in added.notes if "/schema merge" in n]
    assert proposals and all("located_near/2" in n and "located_at/1" not in n for n in proposals)


# -- the preview ---------------------------------------------------------------------------------

def test_merge_without_yes_shows_what_changes_and_changes_nothing(shells):
    shell = shells()
    kb(shell)
    before, events = state(shell.memory), len(shell.events)
    shown = run(shell, "/schema merge located_at/2 located_in/2")
    assert isinstance(shown, Message)
    assert "3 facts, 1 rule, 1 constraint" in shown.text and "1 of them is already there" in shown.text
    assert "located_at(berlin, germany).  ->  located_in(berlin, germany)." in shown.text
    assert "/schema merge located_at/2 located_in/2 --yes" in shown.text and "/schema undo" in shown.text
    assert shown.data["merged"] is False and (shown.data["fact"], shown.data["rule"], shown.data["constraint"]) == (3, 1, 1)
    assert len(shown.data["examples"]) == 3
    assert state(shell.memory) == before and changes(shell.events[events:]) == []
    fails(run(shell, "/schema undo"), "no merge to undo")      # a preview leaves nothing to undo


def test_a_preview_lists_a_few_examples_and_counts_the_rest(sym):
    sym("/set schema_merge off")
    sym(" ".join(f"old_p(a{i})." for i in range(10)))
    shown = sym("/schema merge old_p/1 new_p/1")
    assert "10 facts" in shown.text and "a new predicate" in shown.text and "… and 7 more" in shown.text
    assert "new_p/1" not in sym.shell.memory.schema.predicates


@pytest.mark.parametrize("line, words", [
    ("/schema merge located_at/2 located_in/3 --yes", ["arities differ"]),
    ("/schema merge located_at/2 located_at/2 --yes", ["into itself"]),
    ("/schema merge nowhere/2 located_in/2 --yes", ["unknown predicate nowhere/2"]),
    ("/schema merge located_at/2 --yes", ["unknown /schema form"]),
    ("/schema merge located_at/2 located_in/² --yes", ["bad predicate indicator"]),
    ("/schema undo --yes", ["--yes goes with /schema merge"]),
    ("/schema --yes", ["--yes goes with /schema merge"]),
    ("/schema undo now", ["unknown /schema form"]),
])
def test_bad_merge_input_is_one_line_and_changes_nothing(shells, line, words):
    shell = shells()
    kb(shell)
    before = state(shell.memory)
    fails(run(shell, line), *words)
    assert state(shell.memory) == before


def test_a_merge_that_would_not_stratify_is_refused_before_anything_changes(sym):
    sym("/set schema_merge off")
    sym("p(X) :- q(X), not r(X). r2(X) :- p(X). q(a).")
    before = state(sym.shell.memory)
    fails(sym("/schema merge r2/1 r/1"), "not stratifiable")
    fails(sym("/schema merge r2/1 r/1 --yes"), "not stratifiable")
    assert state(sym.shell.memory) == before


# -- merge and undo ------------------------------------------------------------------------------

def test_merge_with_yes_rewrites_and_undo_puts_back_exactly(shells):
    shell = shells()
    kb(shell)
    before, order = state(shell.memory), in_order(shell.memory)

    done = run(shell, "/schema merge located_at/2 located_in/2 --yes")
    assert isinstance(done, Message) and done.data["merged"] is True
    memory = shell.memory
    assert "located_at/2" not in memory.schema.predicates
    assert memory.schema.predicates["located_in/2"].template == "{0} is at {1}"     # it took the template
    assert run(shell, "?- near(berlin, X).").answer.bindings == [{"X": "berlin"}]
    assert not any("located_at" in it.text for it in memory.items.values())

    mark = len(shell.events)
    undone = run(shell, "/schema undo")
    assert isinstance(undone, Message) and "located_at/2" in undone.text
    assert state(shell.memory) == before and in_order(shell.memory) == order
    news = shell.events[mark:]
    assert {e.item_id for e in news if isinstance(e, ItemRemoved)} == set(done.data["rewritten"])
    assert {e.item_id for e in news if isinstance(e, ItemAdded)} == {i for i, v in before[0].items() if "located_at" in v[1]}
    assert any(isinstance(e, SchemaChanged) for e in news)
    fails(run(shell, "/schema undo"), "no merge to undo")       # one level

    shell.close()                                                # what was stored is what memory held
    again = shells()
    assert state(again.memory) == before and in_order(again.memory) == order


def test_undo_survives_a_restart(shells):
    shell = shells()
    kb(shell)
    before = state(shell.memory)
    assert run(shell, "/schema merge located_at/2 located_in/2 --yes").ok
    shell.close()

    again = shells()
    assert "located_at/2" not in again.memory.schema.predicates
    assert run(again, "/schema undo").ok
    assert state(again.memory) == before


def test_undo_refuses_when_memory_lost_what_the_merge_wrote(shells):
    shell = shells()
    kb(shell)
    assert run(shell, "/schema merge located_at/2 located_in/2 --yes").ok
    run(shell, "/forget located_in(berlin, germany)")
    after = state(shell.memory)
    fails(run(shell, "/schema undo"), "cannot undo", "removed since")
    assert state(shell.memory) == after


def test_a_new_merge_replaces_the_one_to_undo(shells):
    shell = shells()
    kb(shell)
    run(shell, "likes(ann, cake). fond_of(bob, pie).")
    assert run(shell, "/schema merge located_at/2 located_in/2 --yes").ok
    between = state(shell.memory)
    assert run(shell, "/schema merge fond_of/2 likes/2 --yes").ok
    assert "fond_of" in run(shell, "/schema undo").text
    assert state(shell.memory) == between
    fails(run(shell, "/schema undo"), "no merge to undo")


def test_undo_of_a_rename_removes_the_new_name_and_keeps_later_facts(shells):
    shell = shells()
    run(shell, "old_p(a). old_p(b).")
    before = state(shell.memory)
    assert run(shell, "/schema merge old_p/1 new_p/1 --yes").ok
    assert run(shell, "/schema undo").ok
    assert state(shell.memory) == before and "new_p/1" not in shell.memory.schema.predicates

    assert run(shell, "/schema merge old_p/1 new_p/1 --yes").ok
    run(shell, "new_p(c).")                                      # added after the merge: stays
    assert run(shell, "/schema undo").ok
    assert {it.text for it in shell.memory.items.values()} == {"old_p(a).", "old_p(b).", "new_p(c)."}


def test_the_session_log_follows_a_merge_and_its_undo(shells):
    shell = shells(record=True)
    kb(shell)
    assert run(shell, "/schema merge located_at/2 located_in/2 --yes").ok
    _, items = final_state(read_session(shell.ctx.session.path))
    assert set(items) == set(shell.memory.items)
    assert run(shell, "/schema undo").ok
    _, items = final_state(read_session(shell.ctx.session.path))
    assert set(items) == set(shell.memory.items)


def test_memory_kept_in_the_process_undoes_within_the_session(sym):
    sym("/set schema_merge off")
    sym("located_in(rome, italy). located_at(paris, france).")
    before = state(sym.shell.memory)
    assert sym("/schema merge located_at/2 located_in/2 --yes").ok
    assert sym("/schema undo").ok
    assert state(sym.shell.memory) == before


def test_merge_and_undo_with_a_chroma_server(tmp_path):
    with chroma_server(tmp_path / "server") as url:
        options = MemoryOptions("team", chroma_url=url)
        shell = open_shell(options, record=False)
        try:
            kb(shell)
            before = state(shell.memory)
            assert run(shell, "/schema merge located_at/2 located_in/2 --yes").ok
        finally:
            shell.close()
        again = open_shell(options, record=False)            # the undo is kept on the server
        try:
            assert "located_at/2" not in again.memory.schema.predicates
            assert run(again, "/schema undo").ok
            assert same_but_the_last_bit_of_times(state(again.memory), before)
        finally:
            again.close()
