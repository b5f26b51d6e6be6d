"""An unknown command suggests what the user may have meant: a command it begins, or one a few
edits away (a swap of two letters is one edit); nothing when nothing is near."""

from __future__ import annotations

import pytest

from sym.repl.commands import builtin_registry
from sym.repl.registry import edits, suggestions
from tests.conftest import fails


@pytest.mark.parametrize("typed, meant", [("/wor", ["/workspace", "/workspaces"]), ("/lisitng", ["/listing"]),
                                          ("/aks", ["/ask"]), ("/mth", ["/math"]), ("/chekc", ["/check"]),
                                          ("/frobnicate", []), ("/xyzzy", [])])
def test_suggestions(typed, meant):
    assert suggestions(typed, builtin_registry().names()) == meant


@pytest.mark.parametrize("a, b, n", [("ask", "ask", 0), ("aks", "ask", 1), ("as", "ask", 1), ("kitten", "sitting", 3),
                                     ("", "abc", 3)])
def test_edit_distance(a, b, n):
    assert edits(a, b) == n == edits(b, a)


def test_the_shell_says_it_in_one_line(sym):
    r = sym("/wor")
    fails(r, "unknown command /wor")
    assert r.hint == "did you mean /workspace or /workspaces?"
    assert sym("/frobnicate").hint == "/help lists commands"
