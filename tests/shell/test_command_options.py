"""Options declared once per command: parsing (`--opt value` and `--opt=value` alike), errors
that name the option, usage, /help and completion all come from the declaration."""

from __future__ import annotations

import pytest

from sym.core.errors import UserError
from sym.repl.arguments import Option, parse
from sym.repl.registry import Command, Registry
from sym.repl.results import Message
from tests.conftest import fails

OPTIONS = (Option("--depth", int, metavar="N", low=1, high=4, default=2, help="how deep"),
           Option("--refine", choices=("truth", "oracle"), noun="refiner"),
           Option("--add", bool, help="keep it"),
           Option("--k", int, metavar="N", aliases=("-k",)),
           Option("--by", metavar="CRITERION", words=True),
           Option("--file", metavar="FILE", values="file"))


@pytest.mark.parametrize("text", ["rain --depth 3 --refine oracle --add", "rain --depth=3 --refine=oracle --add",
                                  "--depth=3 rain --add --refine oracle"])
def test_both_spellings_read_the_same(text):
    args = parse(OPTIONS, text)
    assert (args.text, args.depth, args.refine, args.add) == ("rain", 3, "oracle", True)
    assert args.given == {"depth", "refine", "add"}


def test_defaults_aliases_quotes_and_values_of_several_words():
    args = parse(OPTIONS, '"wet grass" -k 5 --by how sweet it is')
    assert args.words == ("wet grass",) and args.k == 5 and args.by == "how sweet it is"
    assert args.depth == 2 and args.refine is None and args.add is False and args.given == {"k", "by"}


def test_english_keeps_its_apostrophes_and_leading_options_stop_at_the_text():
    assert parse(OPTIONS, "Is Bob's dog big? --add").text == "Is Bob's dog big?"
    args = parse(OPTIONS, "--add Bob said --depth 3 --fromage", leading=True)
    assert args.add and args.depth == 2 and args.text == "Bob said --depth 3 --fromage"


@pytest.mark.parametrize("text, message", [
    ("x --depth", "--depth needs a value"), ("x --depth two", "--depth wants a number, not 'two'"),
    ("x --depth 9", "--depth must be from 1 to 4, not 9"), ("x --refine magic", "unknown refiner 'magic'"),
    ("x --colour red", "unknown option --colour"), ("x --add=yes", "--add takes no value"),
    ("x --k 1 -k 2", "--k is given twice")])
def test_errors_are_one_line_and_name_the_option(text, message):
    with pytest.raises(UserError) as err:
        parse(OPTIONS, text, usage="/x TOPIC")
    assert message in err.value.message and "\n" not in err.value.message


def test_usage_help_and_completion_come_from_the_declaration(tmp_path, monkeypatch):
    seen = []
    cmd = Command("/x", lambda ctx, args, run: seen.append(args) or Message("ok"), args="TOPIC", options=OPTIONS,
                  completer=lambda ctx, text: ["topic"])
    assert cmd.usage == ("/x TOPIC [--depth N] [--refine truth|oracle] [--add] [--k N] [--by CRITERION] "
                         "[--file FILE]")
    cmd.handler(None, "rain --depth=3", None)       # callers hand over the text; the handler gets Args
    assert seen[0].depth == 3
    assert "--depth N" in cmd.options_help and "how deep" in cmd.options_help
    assert cmd.complete(None, "rain --d") == ["--depth"]
    assert cmd.complete(None, "rain --add --a") == []                 # given already
    assert cmd.complete(None, "rain --refine ") == ["truth", "oracle"]
    assert cmd.complete(None, "rain --refine=o") == ["--refine=oracle"]
    assert cmd.complete(None, "ra") == ["topic"]                       # the command's own completer
    (tmp_path / "prog.json").write_text("{}")
    monkeypatch.chdir(tmp_path)
    assert cmd.complete(None, "--file pr") == ["prog.json"]
    reg = Registry()
    reg.add(cmd)
    assert reg.complete(None, "/x rain --ad") == ["--add"]


def test_help_for_a_command_lists_its_options(sym):
    text = sym("/help /explore").entries[0][2]
    assert "options:" in text and "--depth N" in text and "--refine truth|oracle|rater" in text


def test_an_explicit_prompter_wins_over_a_policy_in_either_spelling(sym):
    # `--prompter=x` used to be parsed, but the policy override only looked for a bare `--prompter`
    assert sym("/policy add {name: p, target: prompter, filter: {command: /explore}, attributes: {prompter: pol}}").ok
    fails(sym("/explore rain"), "unknown prompter 'pol'")            # the policy picks the prompter …
    for line in ("/explore rain --prompter=nosuch", "/explore rain --prompter nosuch"):
        fails(sym(line), "unknown prompter 'nosuch'")                # … unless the user names one


@pytest.mark.parametrize("line, words", [
    ("/search cake --k=0", "--k must be from 1 to 1000"), ("/search cake --kind=nope", "unknown kind 'nope'"),
    ("/ask --max-steps=x Is Bob big?", "--max-steps wants a number"), ("/ask --mode=magic x?", "unknown mode 'magic'"),
    ("/ask --closed --open Is Bob big?", "not both"), ("/policy stats --threshold=2", "--threshold must be from"),
    ("/policy list --llm", "only go with /policy stats and suggest"), ("/listing --derived=1", "takes no value"),
    ("/forget --derived p(a)", "takes nothing else"), ("/rank a, b", "--by CRITERION"),
    ("/save --script", "--script needs a value"), ("/math --latex", "usage: /math")])
def test_migrated_commands_read_both_spellings_and_refuse_bad_values(sym, line, words):
    fails(sym(line), words)


def test_migrated_flags_work_spelt_either_way(sym):
    sym("/fact p(a).")
    sym("/rule q(X) :- p(X).")
    assert "q(a)" in "".join(sym("/listing q --derived").derived)
    assert sym("/math --latex expand (x+1)**2").latex
    assert sym("/policy stats --threshold=0.6").threshold == 0.6
