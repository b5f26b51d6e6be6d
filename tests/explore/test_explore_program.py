"""The Horn program an exploration builds: merging, the model, and the text exports."""

from __future__ import annotations

from sym.core.reason.explore.program import AND, CONSTRAINT, FACT, FAIL, OR, ExploredProgram, Node, to_dot, to_problog, to_prolog


def small_program() -> ExploredProgram:
    p = ExploredProgram()
    p.add("wet grass", ("rain",), OR)
    p.add("wet grass", ("sprinkler",), OR)
    p.add("rain", ("clouds", "humidity"), AND)
    p.add("clouds", (), FACT, 0.8)
    p.add("humidity", (), FACT)
    p.add("sprinkler", ("timer",), AND)
    p.add("timer", (), FAIL)
    return p


def test_clauses_print_with_quoted_atoms_and_failing_ones_with_fail():
    text = small_program().text().splitlines()
    assert text[0] == "'wet grass' :- 'rain'."
    assert "'rain' :- 'clouds', 'humidity'." in text
    assert "'timer' :- fail." in text


def test_the_same_clause_twice_is_one_clause_even_with_its_body_reordered():
    p = small_program()
    assert not p.add("rain", ("humidity", "clouds"), AND)
    assert not p.add("wet grass", ("rain",), OR)
    assert p.merged == 2 and len(p) == 7


def test_model_follows_the_clauses_and_failing_leaves_stay_out():
    model = small_program().model()
    assert model.model == {"wet grass", "rain", "clouds", "humidity"}
    assert model.consistent


def test_a_constraint_is_reported_not_raised():
    p = small_program()
    p.add(None, ("clouds", "humidity"), CONSTRAINT)
    model = p.model()
    assert not model.consistent and "wet grass" in model.model
    assert p.text().endswith(":- 'clouds', 'humidity'.")


def test_quotes_inside_atoms_are_escaped():
    p = ExploredProgram()
    p.add("it's late", ())
    assert p.text() == "'it\\'s late'."


def test_prolog_export_declares_every_atom_and_lists_the_model():
    out = to_prolog(small_program(), topic="wet grass")
    assert ":- table 'timer'/0." in out and ":- dynamic 'wet grass'/0." in out
    assert "explore_atom('humidity')." in out


def test_problog_export_carries_probabilities_and_the_query():
    out = to_problog(small_program(), top="wet grass")
    assert "0.8::'clouds'." in out
    assert "\n'humidity'.\n" in out
    assert out.rstrip().endswith("query('wet grass').")


def test_dot_export_draws_every_node_once_with_edges_to_parents():
    nodes = [Node("n1", None, "explore.and", "wet grass", 'the "grass"', "goal"),
             Node("n2", "n1", "explore.or", "rain", "Rain", "alternative"),
             Node("n3", "n2", "explore.and", "clouds", "clouds", "goal"),
             Node("n3", "n2", "explore.rejected", "clouds", "clouds", "rejected")]
    out = to_dot(nodes, model=frozenset({"rain"}))
    assert out.startswith("digraph explore {") and out.rstrip().endswith("}")
    assert out.count("n3 [") == 1 and 'label="clouds\\n(rejected)"' in out
    assert "n1 -> n2;" in out and "n2 -> n3;" in out
    assert 'label="the \\"grass\\""' in out
    assert "penwidth=2" in out.split("n2 [", 1)[1].split("\n", 1)[0]
