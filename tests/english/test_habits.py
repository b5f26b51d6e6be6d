"""What SWI-Prolog users type out of habit: halt., listing., \\+, true, fail, `?- p(_).`, `false.` for
no answers; and /clear, /set --save and /math's numbers and --latex."""

from __future__ import annotations

import os
import tomllib

import pytest

from sym.core.logic.terms import FAIL_GOAL, TRUE_GOAL
from sym.core.settings import load_settings
from sym.repl.render import to_text
from sym.repl.results import Answered, Exit, Listing, Message
from tests.conftest import fails, state


def answer(result):
    assert isinstance(result, Answered), to_text(result)
    return result.answer


# -- halt. and listing. --------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["halt.", "halt", "  halt .  ", "?- halt.", "?- halt"])
def test_halt_leaves_as_bye_does_and_stores_nothing(sym, text):
    assert isinstance(sym(text), Exit)
    assert sym.shell.memory.items == {}


def test_listing_lists_as_the_command_does_and_stores_nothing(sym):
    sym("bird(tweety). big(polly). fly(X) :- bird(X).")
    listed = sym("listing.")
    assert isinstance(listed, Listing)
    assert to_text(listed) == to_text(sym("/listing"))
    assert len(sym.shell.memory.items) == 3
    assert [it.text for it in sym("listing(bird).").items] == ["bird(tweety)."]
    assert [it.text for it in sym("?- listing(fly/1).").items] == ["fly(X) :- bird(X)."]


def test_halt_and_listing_are_recorded_as_the_commands_they_are(sym):
    """The --json line and the session log name /bye and /listing, not /assert."""
    sym("bird(tweety).")
    assert sym.shell.execute("listing.")[0] == "/listing"
    assert sym.shell.execute("halt.")[0] == "/bye"
    assert sym.shell.execute("bird(polly).")[0] == "/assert"


def test_listing_of_an_unknown_predicate_says_how_to_store_it_instead(sym):
    sym("bird(tweety).")
    result = sym("listing(house1).")
    fails(result, "unknown predicate house1")
    assert "/fact listing(house1)." in result.hint
    assert len(sym.shell.memory.items) == 1
    sym("/fact listing(house1).")                   # the explicit command stores it
    assert len(sym.shell.memory.items) == 2


@pytest.mark.parametrize("text", ["true.", "fail.", "halt :- p(a).", "/fact listing.", "/rule fail :- p(a).",
                                  "p(a). true.", "~true.", "true :- p(a)."])
def test_built_in_names_cannot_be_stored_and_nothing_is(sym, text):
    sym("p(a).")
    before = state(sym.shell)
    message = fails(sym(text), "cannot be")
    assert any(word in message for word in ("true", "fail", "halt", "listing"))
    assert state(sym.shell) == before


def test_a_consulted_file_with_a_built_in_fact_adds_nothing(sym, tmp_path):
    path = tmp_path / "habits.pl"
    path.write_text("p(a).\nfail.\n")
    fails(sym(f"/consult {path}"), "habits.pl:2", "fail cannot be stored as a fact")
    assert sym.shell.memory.items == {}


# -- \+, true, fail ----------------------------------------------------------------------------------

def test_backslash_plus_is_negation_as_failure(sym):
    sym("bird(tweety). bird(polly). big(polly).")
    sym(r"small(X) :- bird(X), \+ big(X).")
    assert answer(sym("?- small(X).")).bindings == [{"X": "tweety"}]
    assert answer(sym(r"?- bird(X), \+ big(X).")).bindings == [{"X": "tweety"}]
    assert answer(sym(r"?- bird(X), \+(big(X)).")).bindings == [{"X": "tweety"}]
    assert answer(sym(r"?- \+ big(tweety).")).truth == "true"
    assert [it.text for it in sym.shell.memory.items.values()][-1] == "small(X) :- bird(X), not big(X)."


@pytest.mark.parametrize("query, truth", [
    ("?- true.", "true"), ("?- fail.", "false"), ("?- false.", "false"), (r"?- \+ true.", "false"),
    (r"?- \+ fail.", "true"), ("?- true, fail.", "false"), ("?- bird(tweety), true.", "true"),
])
def test_true_and_fail_are_built_in_goals(sym, query, truth):
    sym("bird(tweety).")
    assert answer(sym(query)).truth == truth


def test_true_and_fail_hold_and_fail_in_open_world_too(sym):
    sym("/set world open")
    assert answer(sym("?- true.")).truth == "true"
    assert answer(sym("?- fail.")).truth == "false"


def test_true_and_fail_in_rule_bodies(sym):
    sym("bird(tweety).")
    sym("ok :- true.")
    sym("flies(X) :- bird(X), true.")
    sym("never(X) :- bird(X), fail.")
    sym("nope(X) :- bird(X), false.")
    assert answer(sym("?- ok.")).truth == "true"
    assert answer(sym("?- flies(X).")).bindings == [{"X": "tweety"}]
    assert answer(sym("?- never(X).")).bindings == []
    assert answer(sym("?- nope(tweety).")).truth == "false"
    texts = [it.text for it in sym.shell.memory.items.values()]
    assert "ok :- true." in texts and "nope(X) :- bird(X), fail." in texts
    assert "true/0" not in sym.shell.memory.engine.relation_keys()   # no relation, no schema entry
    assert "true  [builtin]" in to_text(sym("/why ok"))


def test_the_goals_print_back_as_they_read():
    from sym.core.logic.parser import parse_one

    rule = parse_one("p(X) :- q(X), true, \\+ fail, false.")
    assert rule.body[1:] == (TRUE_GOAL, TRUE_GOAL, FAIL_GOAL)
    assert str(rule) == "p(X) :- q(X), true, true, fail."
    assert parse_one(str(rule)) == rule


# -- answers: true. / false. -----------------------------------------------------------------------

def test_a_query_with_only_anonymous_variables_answers_true_or_false(sym):
    sym("bird(tweety). big(polly).")
    yes = sym("?- bird(_).")
    assert answer(yes).truth == "true" and to_text(yes) == "true."
    assert to_text(sym("?- bird(_), big(_).")) == "true."
    sym("fish(nemo) :- fail.")
    no = sym("?- fish(_).")
    assert answer(no).truth == "false" and to_text(no) == "false."
    assert yes.to_dict() == {"query": "?- bird(_).", "complete": True, "truth": "true"}


@pytest.mark.parametrize("query", ["?- bird(X), X = zed.", "?- bird(zed).", "?- bird(X), big(X).", "?- fail."])
def test_every_query_nothing_answers_says_false(sym, query):
    sym("bird(tweety). big(polly).")
    assert to_text(sym(query)) == "false."


def test_a_consulted_query_with_anonymous_variables_answers_true(sym, tmp_path):
    path = tmp_path / "q.pl"
    path.write_text("bird(tweety).\n?- bird(_).\n?- bird(X), X = polly.\n")
    added = sym(f"/consult {path}")
    assert to_text(added).splitlines()[-4:] == ["?- bird(_).", "true.", "?- bird(X), X = polly.", "false."]
    assert added.to_dict()["answers"][0]["truth"] == "true"


# -- /clear ----------------------------------------------------------------------------------------

def test_clear_forgets_the_chat_conversation_only(sym):
    sym("bird(tweety).")
    sym.shell.ctx.chat_history += [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    result = sym("/clear")
    assert isinstance(result, Message) and "forgot 1 chat turn" in result.text
    assert sym.shell.ctx.chat_history == [] and len(sym.shell.memory.items) == 1
    assert "already empty" in sym("/clear").text
    fails(sym("/clear everything"), "takes no arguments")


def test_after_clear_the_model_sees_no_earlier_turns(llm_sym):
    llm_sym.server.reply("Hello there.")
    llm_sym("/chat my name is Ann")
    llm_sym("/chat what is my name?")
    assert "my name is Ann" in str(llm_sym.server.chats[-1].messages)
    llm_sym("/clear")
    llm_sym("/chat what is my name?")
    assert "my name is Ann" not in str(llm_sym.server.chats[-1].messages)


# -- /set --save -----------------------------------------------------------------------------------

CONFIG = """# my defaults
[settings]
model = "qwen2.5:7b"   # the small one
world = "closed" # '#' in a comment

[other]
keep = 1
"""


@pytest.fixture
def config(sym_home, monkeypatch):
    monkeypatch.delenv("SYM_CONFIG", raising=False)
    monkeypatch.delenv("SYM_MODEL", raising=False)
    path = sym_home / "config.toml"
    path.write_text(CONFIG)
    return path


def test_set_save_writes_the_setting_and_keeps_the_rest_of_the_file(sym, config):
    result = sym("/set --save world open")
    assert "saved to" in result.text and sym.shell.ctx.settings.world == "open"
    sym("/set max_steps 3 --save")
    sym("/set --save llm_cache off")
    sym("/set --save judge_model none")
    text = config.read_text()
    assert text.startswith("# my defaults\n[settings]\nmodel = \"qwen2.5:7b\"   # the small one\n")
    assert "world = \"open\"  # '#' in a comment\n" in text
    assert text.endswith("[other]\nkeep = 1\n")
    data = tomllib.loads(text)
    assert data["settings"] == {"model": "qwen2.5:7b", "world": "open", "max_steps": 3, "llm_cache": False,
                                "judge_model": "none"}
    loaded = load_settings()
    assert (loaded.world, loaded.max_steps, loaded.llm_cache, loaded.judge_model) == ("open", 3, False, None)
    assert not [p for p in config.parent.iterdir() if p.name.startswith(".config-")]   # no temporary left


def test_set_without_save_stays_in_the_session(sym, config):
    sym("/set world open")
    assert config.read_text() == CONFIG


def test_set_save_makes_a_config_file_when_there_is_none(sym, sym_home, monkeypatch):
    monkeypatch.delenv("SYM_CONFIG", raising=False)
    sym("/set --save temperature 0.5")
    assert tomllib.loads((sym_home / "config.toml").read_text()) == {"settings": {"temperature": 0.5}}


@pytest.mark.parametrize("text, word", [
    ("/set --save max_answers zero", "max_answers"), ("/set --save nosuch 1", "unknown setting"),
    ("/set --save", "needs a setting and its value"), ("/set --save world", "needs a setting and its value"),
    ("/set --sav world open", "unknown option --sav"),
])
def test_a_bad_save_changes_neither_file_nor_session(sym, config, text, word):
    before = state(sym.shell)
    fails(sym(text), word)
    assert state(sym.shell) == before and config.read_text() == CONFIG


def test_a_layout_the_edit_cannot_keep_is_refused(sym, config):
    config.write_text('settings = { world = "closed" }\n')
    fails(sym("/set --save world open"), "cannot save")
    assert config.read_text() == 'settings = { world = "closed" }\n' and sym.shell.ctx.settings.world == "auto"


def test_an_unreadable_config_is_refused(sym, config):
    config.write_text("[settings\n")
    fails(sym("/set --save world open"), "cannot read")
    assert sym.shell.ctx.settings.world == "auto"     # the default, unchanged


def test_saving_a_setting_an_environment_variable_decides_says_so(sym, config, monkeypatch):
    monkeypatch.setenv("SYM_MODEL", "other:1b")
    assert "$SYM_MODEL" in sym("/set --save model tiny:1b").text
    assert tomllib.loads(config.read_text())["settings"]["model"] == "tiny:1b"


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs a read-only directory")
def test_an_unwritable_config_changes_nothing(sym, config):
    config.parent.chmod(0o500)
    try:
        fails(sym("/set --save world open"), "cannot write")
    finally:
        config.parent.chmod(0o700)
    assert config.read_text() == CONFIG and sym.shell.ctx.settings.world == "auto"


# -- /math -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("op, expr, out", [
    ("simplify", "1e10", "10000000000"), ("simplify", "2.5e-3*x", "x/400"), ("expand", "1.5E2*(x + 1)", "150*x + 150"),
    ("simplify", "2e", "2*E"), ("simplify", "2e - 3", "-3 + 2*E"), ("simplify", ".5e1", "5"),
    ("simplify", "1e10x", "10000000000*x"),
])
def test_math_reads_scientific_notation(op, expr, out):
    from sym.core.reason.math import compute_here

    assert compute_here(op, expr).text == out


def test_math_refuses_a_huge_exponent_in_one_line():
    from sym.core.errors import UserError
    from sym.core.reason.math import compute_here

    with pytest.raises(UserError, match="exponent too large"):
        compute_here("simplify", "1e100000")


@pytest.mark.parametrize("op, expr, latex", [
    ("simplify", "sin(x)**2 + cos(x)**2", "1"), ("factor", "x**2 - 1", r"\left(x - 1\right) \left(x + 1\right)"),
    ("expand", "(x + 1)**2", "x^{2} + 2 x + 1"), ("solve", "x**2 = 4", "x = -2, x = 2"),
    ("solve", "x = x + 1 wrt x", r"\text{no solution}"), ("solve", "x - x wrt x", r"x \in \mathbb{C}"),
    ("diff", "sin(x) wrt x", r"\cos{\left(x \right)}"), ("integrate", "x wrt x", r"\frac{x^{2}}{2}"),
    ("collect", "x*y + x wrt x", r"x \left(y + 1\right)"), ("simplify", "2.5e-3", r"\frac{1}{400}"),
])
def test_every_math_operation_has_latex(op, expr, latex):
    from sym.core.reason.math import compute_here

    assert compute_here(op, expr).latex == latex


def test_math_latex_through_the_command(sym):
    assert to_text(sym("/math --latex simplify 1e10")) == "10000000000"
    assert to_text(sym("/math solve x = x + 1 wrt x --latex")) == r"\text{no solution}"
    assert to_text(sym("/math solve x = x + 1 wrt x")) == "no solution"
