"""Fuzzing what users type: the controlled-English fast path, /tell with the model away,
/policy add with random flow-YAML, /explore options, and every command with junk after it.

The bar everywhere: no exception escapes, a failure is one line (never "internal error"),
and a failed input changes nothing.
"""

from __future__ import annotations

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sym.core.errors import UserError
from sym.core.logic.parser import parse_program, parse_query
from sym.core.reason.swm.english import question_goal, split_sentences, translate
from sym.repl.commands.explore import parse_options
from sym.repl.dispatcher import Shell
from sym.repl.results import Failure
from tests.ollama_server import unused_url

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))

WORDS = ["Bob", "bob", "the", "The", "cat", "is", "are", "not", "big", "red", "If", "if", "then", "it", "they",
         "someone", "something", "and", "All", "all", "things", "people", "of", "the father", "Box", "1", "0",
         "contains", "nothing", "Move", "from", "to", "Put", "into", "What", "Who", "How is", "related to",
         "does", "doesn't", "do not", "chase", "chases", "sees", "a", "an", "'", '"', "?", ".", ",", "!", "ü", "X",
         "_", "__import__('os')", "(", ")", ":-", "%", "~", "Every", "mother-in-law", "3.5", "1e400", "O'Brien",
         "bald eagle", "\\", "\t", "e.g.", "Anne is the mother of Bob."]
sentence = st.lists(st.sampled_from(WORDS), max_size=14).map(" ".join)
any_text = st.one_of(sentence, st.text(max_size=80), st.lists(sentence, max_size=4).map(". ".join))


def _parses(clause: str, origin: str) -> None:
    try:
        parse_program(clause)
    except UserError as err:
        raise AssertionError(f"{origin!r} gave a clause that does not parse: {clause!r} ({err})") from None


@FUZZ
@given(any_text)
def test_the_fast_path_never_raises_and_every_clause_it_writes_parses(text):
    for one in split_sentences(text):
        assert one.strip()
        found = translate(one)
        for clause in (found.clauses if found else []):
            _parses(clause, one)
    found = translate(text)
    for clause in (found.clauses if found else []):
        _parses(clause, text)
    goal = question_goal(text)
    if goal is not None:
        parse_query(goal.query)


def _shell_without_llm() -> Shell:
    shell = Shell(plugins=False)
    shell.ctx.settings.ollama_host = unused_url()
    shell.ctx.settings.llm_retries = 0
    shell.ctx.settings.llm_timeout = 5
    return shell


@FUZZ
@given(any_text)
def test_tell_with_the_llm_unreachable_is_all_or_nothing(text):
    shell = _shell_without_llm()
    _, result = shell.execute("/tell " + text)
    if isinstance(result, Failure):
        assert "internal error" not in result.message and "\n" not in result.message, result.message
        assert not shell.memory.items            # nothing from the templated sentences either
    else:
        assert result.llm_calls == 0             # only the fast path could have answered


scalar = st.one_of(st.none(), st.booleans(), st.integers(-10 ** 30, 10 ** 30), st.floats(), st.text(max_size=10),
                   st.sampled_from(["/ask", "llm", "prompter", "reasoner", ">= 3", "< abc", "!= proof", "causal", ".nan"]))
keys = st.sampled_from(["name", "target", "filter", "attributes", "enabled", "priority", "command", "goal_type",
                        "length", "model", "temperature", "prompter", "max_steps", "__class__", "proof.attempts"])
value = st.recursive(scalar, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(keys, inner, max_size=4)),
                     max_leaves=10)
rule = st.fixed_dictionaries({}, optional={
    "name": st.one_of(st.text(max_size=8), st.sampled_from(["a", "b"])), "target": st.sampled_from(["llm", "prompter", "x"]),
    "filter": value, "attributes": value, "priority": scalar, "enabled": scalar})
flow_yaml = st.one_of(
    rule.map(lambda d: yaml.safe_dump(d, default_flow_style=True, width=10 ** 6).strip()),
    st.text(max_size=60),
    st.lists(st.sampled_from(["{", "}", "[", "]", ":", ",", "name", "target", "llm", "!!python/object/apply:os.system",
                              "&a", "*a", "'", '"', " ", "\n", "?", "attributes"]), max_size=20).map("".join))


@FUZZ
@given(flow_yaml)
def test_policy_add_takes_a_valid_rule_or_refuses_in_one_line_changing_nothing(text):
    shell = Shell(plugins=False)
    before = shell.execute("/policy list")[1].to_dict()["rules"]
    _, result = shell.execute("/policy add " + text)
    after = shell.execute("/policy list")[1].to_dict()["rules"]
    if isinstance(result, Failure):
        assert "internal error" not in result.message and "\n" not in result.message, result.message
        assert after == before
    else:
        assert [r["name"] for r in after] == [r["name"] for r in before] + [result.data["rule"]["name"]]


OPTION_WORDS = ["--prompter", "--depth", "--refine", "--threshold", "--k", "--add", "--x", "--depth=", "--k=2",
                "--threshold=0.3", "truth", "oracle", "rater", "0", "1", "7", "-1", "nan", "inf", "1e9", "0.5", "'",
                '"', "topic", "²", "٣", "show", "add"]


@FUZZ
@given(st.lists(st.one_of(st.sampled_from(OPTION_WORDS), st.text(max_size=6)), max_size=8).map(" ".join))
def test_explore_options_are_read_within_bounds_or_refused(text):
    try:
        opts = parse_options(text)
    except UserError as err:
        assert "\n" not in err.message
        return
    assert opts.topic
    assert 1 <= opts.depth <= 6 and 0.0 <= opts.threshold <= 1.0 and 1 <= opts.k <= 50
    assert opts.refine in (None, "truth", "oracle", "rater")


JUNK = st.one_of(st.text(max_size=40), st.sampled_from([
    "--nope", "--k", "--k -5", "99999999999999999999", "1e400", "nan", "'", '"a b', "__import__('os').system('x')",
    "ünïcødé ✓", "\u202e\x00x", "x" * 3000, "a(" * 200, "--file /no/such.json", "²", "/", "~nosuchuser/x", "{", "%"]))
# /export and /save write files named by their argument; /bye ends the shell: not for random input
SKIP = {"/export", "/save", "/bye"}


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(JUNK)
def test_no_command_turns_junk_into_an_internal_error_or_a_change(text):
    shell = _shell_without_llm()
    shell.execute("/fact parent_of(ann, ben).")
    for name in sorted(set(shell.registry.commands) - SKIP):
        items, conf = sorted(shell.memory.items), shell.ctx.settings.model_dump()
        _, result = shell.execute(f"{name} {text}")
        result.to_dict()
        if isinstance(result, Failure):
            assert "internal error" not in result.message, (name, text, result.message)
            assert "\n" not in result.message and len(result.message) <= 300
            assert (sorted(shell.memory.items), shell.ctx.settings.model_dump()) == (items, conf), (name, text)
