"""Inputs that used to reach the user as internal errors now get one clear line and change
nothing: lone surrogates, over-long integers (also on the long-file fast path), what the
grammar refuses, and numbers written two ways."""

from __future__ import annotations

import pytest

from sym.core.errors import ParseError
from sym.core.logic.parser import parse_program
from sym.repl.results import Failure

PAD = "".join(f"pad{i}(x).\n" for i in range(70))      # over 64 lines: the parser's fast path


def refused(result) -> str:
    assert isinstance(result, Failure), result
    assert "internal error" not in result.message and "\n" not in result.message
    return result.message


def test_a_lone_surrogate_is_one_clear_line_and_adds_nothing(sym):
    message = refused(sym("p('\ud800')."))
    assert "U+D800" in message and "column 4" in message
    assert not sym.shell.memory.items


def test_a_lone_surrogate_in_a_long_file_names_its_line(sym, tmp_path):
    path = tmp_path / "bad.pl"
    path.write_text(PAD + "q(a).\nq('x\udcff').\n", encoding="utf-8", errors="surrogateescape")
    message = refused(sym(f"/consult {path}"))
    assert "bad.pl" in message or "line" in message
    assert not sym.shell.memory.items


@pytest.mark.parametrize("prefix", ["", PAD], ids=["short", "long file"])
def test_an_integer_of_4301_digits_is_refused_with_its_place(prefix):
    with pytest.raises(ParseError) as err:
        parse_program(prefix + "p(" + "1" * 4301 + ").\n", source="big.pl")
    assert err.value.line == prefix.count("\n") + 1 and err.value.column == 3
    assert "4301 digits" in str(err.value) and "\n" not in str(err.value)


def test_an_integer_of_4300_digits_is_a_fact_and_prints_back():
    (located,) = parse_program("p(" + "7" * 4300 + ").")
    assert located.clause.args == (int("7" * 4300),)


def test_a_long_file_with_4301_digits_is_one_line_through_consult(sym, tmp_path):
    path = tmp_path / "big.pl"
    path.write_text(PAD + "p(" + "1" * 4301 + ").\n")
    message = refused(sym(f"/consult {path}"))
    assert "big.pl:71:3" in message
    assert not sym.shell.memory.items


@pytest.mark.parametrize("line", ["false(x).", "p(a,\u3000b).", "p(\u3000a).", "p(a)\u3000.",
                                  "p(\u0663)."])
def test_a_long_file_refuses_what_the_grammar_refuses(line):
    with pytest.raises(ParseError):
        parse_program(line)
    with pytest.raises(ParseError) as err:
        parse_program(PAD + line)
    assert err.value.line == 71


def test_one_and_one_point_zero_are_one_fact(sym):
    assert sym("p(2).").ok
    assert sym("p(1.0).").ok
    assert sym("?- p(1).").answer.truth == "true"
    assert not sym("p(1).").items                     # already known
    assert sorted(str(i.clause) for i in sym.shell.memory.items.values()) == ["p(1)", "p(2)"]
    assert sym("/forget p(1.0)").ok
    assert sym("?- p(1).").answer.truth == "false"     # no ghost left behind
    assert [str(i.clause) for i in sym.shell.memory.items.values()] == ["p(2)"]


@pytest.mark.parametrize("text, value", [("1", 1), ("1.0", 1), ("1e3", 1000), ("10e-1", 1), ("-0.0", 0),
                                          ("2.5", 2.5), ("-2.50", -2.5)])
def test_a_number_is_its_value(text, value):
    (located,) = parse_program(f"n({text}).")
    (arg,) = located.clause.args
    assert arg == value and type(arg) is type(value)


def test_unwritable_sym_home_is_one_line_and_exit_2(sym_exe, tmp_path):
    import os
    import subprocess

    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    env = {**os.environ, "SYM_HOME": str(blocker / "home")}
    proc = subprocess.run([*sym_exe, "--batch", "-"], input="p(a).\n", capture_output=True, text=True,
                          timeout=120, env=env)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "cannot write" in proc.stderr and "SYM_HOME" in proc.stderr


def test_a_workspace_that_cannot_be_written_is_one_line_and_exit_2(sym_exe, tmp_path):
    import os
    import subprocess

    home = tmp_path / "home"
    home.mkdir()
    (home / "workspaces").write_text("in the way")
    env = {**os.environ, "SYM_HOME": str(home)}
    proc = subprocess.run([*sym_exe, "--batch", "-"], input="p(a).\n", capture_output=True, text=True,
                          timeout=120, env=env)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "cannot write workspace 'default'" in proc.stderr
