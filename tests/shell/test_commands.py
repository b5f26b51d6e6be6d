"""The shell's commands, driven the way a user types them."""

from __future__ import annotations

from sym.repl.render import to_text
from sym.repl.results import Added, Answered, Exit, Failure, Forgotten, HelpText, Inferred, Listing, Message, Proofs, Table


def truth(result) -> str:
    assert isinstance(result, Answered), to_text(result)
    return result.answer.truth


def test_forgetting_a_fact_retracts_what_was_derived_from_it(sym):
    sym("/fact parent_of(ann, ben).")
    sym("/rule ancestor(X, Y) :- parent_of(X, Y).")
    assert truth(sym("?- ancestor(ann, ben).")) == "true"
    sym("/forget parent_of(ann, ben)")
    assert truth(sym("?- ancestor(ann, ben).")) == "false"


def test_facts_and_rules_typed_directly_are_stored(sym):
    result = sym("father_of(joshua, don). daughter_of(ann, joshua).")
    assert isinstance(result, Added) and len(result.items) == 2
    sym("sister_of(C, A) :- father_of(B, A), daughter_of(C, B).")
    answer = sym("?- sister_of(X, don).").answer
    assert answer.bindings == [{"X": "ann"}]


def test_fact_command_refuses_a_rule_and_changes_nothing(sym):
    result = sym("/fact p(X) :- q(X).")
    assert isinstance(result, Failure) and "/rule" in result.hint
    assert sym.shell.memory.items == {}


def test_a_bad_clause_in_a_line_adds_none_of_it(sym):
    result = sym("p(a). q(b) r(c).")
    assert isinstance(result, Failure) and "column" in result.message
    assert sym.shell.memory.items == {}


def test_unstratifiable_rule_is_rejected_with_its_cycle(sym):
    sym("q(a).")
    sym("p(X) :- q(X), not r(X).")
    result = sym("r(X) :- q(X), not p(X).")
    assert isinstance(result, Failure)
    assert "p/1" in result.message and "r/1" in result.message
    assert len(sym.shell.memory.items) == 2


def test_query_on_an_unknown_predicate_suggests_a_close_one(sym):
    sym("sister_of(ann, louis).")
    result = sym("?- sistr_of(X, louis).")
    assert isinstance(result, Failure)
    assert "sistr_of/2" in result.message and "sister_of/2" in result.hint


def test_open_world_answers_unknown_unless_the_negation_is_known(sym):
    sym("married(ann, tom). ~married(mia, ben). person(don).")
    sym("/set world open")
    assert truth(sym("?- married(ann, tom).")) == "true"
    assert truth(sym("?- married(mia, ben).")) == "false"
    assert truth(sym("?- married(don, mia).")) == "unknown"
    sym("/set world closed")
    assert truth(sym("?- married(don, mia).")) == "false"


def test_max_steps_limits_what_queries_see(sym):
    sym("edge(a, b). edge(b, c). edge(c, d).")
    sym("path(X, Y) :- edge(X, Y).")
    sym("path(X, Z) :- path(X, Y), edge(Y, Z).")
    sym("/set max_steps 1")
    answer = sym("?- path(a, d).").answer
    assert answer.truth == "false" and not answer.complete
    sym("/set max_steps none")
    assert truth(sym("?- path(a, d).")) == "true"


def test_infer_reports_steps_and_violations(sym):
    sym("parent_of(a, b). parent_of(b, a).")
    sym("ancestor(X, Y) :- parent_of(X, Y).")
    sym("ancestor(X, Z) :- parent_of(X, Y), ancestor(Y, Z).")
    sym(":- ancestor(X, X).")
    result = sym("/infer")
    assert isinstance(result, Inferred) and result.inference.complete
    facts = {str(f) for v in result.inference.violations for f in v.facts}
    assert facts == {"ancestor(a, a)", "ancestor(b, b)"}
    two = sym("/infer 1")
    assert two.inference.steps == 1 and not two.inference.complete


def test_infer_rejects_a_non_number(sym):
    assert isinstance(sym("/infer lots"), Failure)


def test_why_prints_a_proof_tree_down_to_the_facts(sym):
    sym("father_of(joshua, don). daughter_of(ann, joshua).")
    sym("sister_of(C, A) :- father_of(B, A), daughter_of(C, B).")
    result = sym("/why sister_of(ann, don)")
    assert isinstance(result, Proofs)
    text = to_text(result)
    assert "sister_of(ann, don)" in text.splitlines()[0] and "step 1" in text
    assert "├── father_of(joshua, don)" in text and "└── daughter_of(ann, joshua)" in text
    assert "rules used" in text


def test_why_of_something_that_does_not_hold(sym):
    sym("big(bob).")
    text = to_text(sym("/why big(gary)"))
    assert "not derivable" in text


def test_why_with_variables_explains_each_answer(sym):
    sym("p(a). p(b). q(X) :- p(X).")
    result = sym("/why q(X)")
    assert [str(t.literal) for t in result.trees] == ["q(a)", "q(b)"]


def test_listing_shows_ids_and_filters_by_predicate(sym):
    sym("p(a). p(b). q(a). r(X) :- p(X).")
    result = sym("/listing p/1")
    assert isinstance(result, Listing)
    assert [it.text for it in result.items] == ["p(a).", "p(b)."]
    assert all(line.split()[0].startswith("f") for line in to_text(result).splitlines())
    assert isinstance(sym("/listing nothing_like_it"), Failure)


def test_forget_by_id_prefix_and_by_rule_text(sym):
    added = sym("p(a). r(X) :- p(X).")
    fact_id = added.items[0].id
    assert isinstance(sym(f"/forget {fact_id[:5]}"), Forgotten)
    result = sym("/forget r(X) :- p(X).")
    assert isinstance(result, Forgotten) and result.items[0].kind == "rule"
    assert sym.shell.memory.items == {}


def test_forget_of_a_derived_fact_explains_itself(sym):
    sym("p(a). q(X) :- p(X).")
    result = sym("/forget q(a)")
    assert isinstance(result, Failure) and "derived" in result.hint


def test_consult_loads_a_file_all_or_nothing(sym, tmp_path):
    good = tmp_path / "good.pl"
    good.write_text("p(a).\nq(X) :- p(X).\n")
    result = sym(f"/consult {good}")
    assert isinstance(result, Added) and result.source == "good.pl"
    assert result.items[0].source == "good.pl:1"
    bad = tmp_path / "bad.pl"
    bad.write_text("s(a).\ns(b).\nt(X) :- s(X)\n")
    failure = sym(f"/consult {bad}")
    assert isinstance(failure, Failure) and failure.message.startswith("bad.pl:")
    assert "s/1" not in sym.shell.memory.engine.relation_keys()
    missing = sym("/consult no/such/file.pl")
    assert isinstance(missing, Failure) and "no such file" in missing.message


def test_help_lists_every_registered_command_and_details_one(sym):
    listing = sym("/help")
    assert isinstance(listing, HelpText)
    usages = " ".join(u for u, _, _ in listing.entries)
    for name in ("/fact", "/rule", "/consult", "/query", "/infer", "/why", "/listing", "/forget",
                 "/help", "/show", "/set", "/bye", "/export"):
        assert name in usages
    detail = sym("/? why")
    assert detail.detailed and "proof tree" in detail.entries[0][2]


def test_unknown_command_suggests_the_nearest(sym):
    result = sym("/lisitng")
    assert isinstance(result, Failure) and "/listing" in result.hint


def test_set_validates_and_keeps_the_old_value(sym):
    assert isinstance(sym("/set world sideways"), Failure)
    assert sym.shell.ctx.settings.world == "auto"
    assert isinstance(sym("/set colour red"), Failure)
    assert isinstance(sym("/set"), Table)
    assert isinstance(sym("/set max_answers 2"), Message)
    sym("n(1). n(2). n(3).")
    assert "… and 1 more" in to_text(sym("?- n(X)."))


def test_show_summarises_memory(sym):
    sym("p(a). q(X) :- p(X). :- q(b).")
    table = sym("/show")
    rows = {name: value for name, value, _ in table.rows}
    assert rows["facts"] == 1 and rows["rules"] == 1 and rows["constraints"] == 1 and rows["derived"] == 1
    assert "no violations" in to_text(sym("/show violations"))
    assert isinstance(sym("/show everything"), Failure)


def test_bye_ends_the_session(sym):
    assert isinstance(sym("/bye"), Exit)
    assert isinstance(sym("/quit"), Exit)


def test_registry_completes_command_names_and_predicates(sym):
    reg = sym.shell.registry
    assert "/listing" in reg.complete(sym.shell.ctx, "/li")
    sym("father_of(a, b).")
    assert reg.complete(sym.shell.ctx, "/why fat") == ["father_of"]


def test_export_prolog_writes_a_consultable_file(sym, tmp_path):
    sym("p(a). ~q(a). r(X) :- p(X), not s(X). s(b). :- r(X), s(X).")
    target = tmp_path / "out.pl"
    result = sym(f"/export prolog {target}")
    assert isinstance(result, Message)
    text = target.read_text()
    assert "'~q'(a)." in text and "\\+ s(X)" in text and ":- table" not in text   # r/1 is not recursive
    assert "constraint_violated(" in text
    assert isinstance(sym("/export klingon"), Failure)
