"""policies.yaml at scale and under attack: an alias bomb is refused in one line before anything walks
it (the rules in force stay), aliases cannot nest deeper than plain YAML may, and a file of 10,000 rules
loads (its time is benchmarks/policy_bench.py's business)."""

from __future__ import annotations

import os
import time

import pytest

from sym.core.errors import UserError
from sym.core.reason.policy.loader import MAX_NODES
from sym.core.reason.policy.rules import PolicyBook, parse_policies


def bomb() -> str:
    """The audit's shape: nine levels, each a list of nine aliases of the level before (9**9 values)."""
    lines = ["rules:", "- &a [x,x,x,x,x,x,x,x,x]"]
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"- &{name} [{','.join(['*' + prev] * 9)}]")
    return "\n".join(lines) + "\n"


def many(n: int) -> str:
    return "rules:\n" + "".join(
        f"  - name: r{i}\n    target: llm\n    filter: {{command: /ask, words: '>= {i % 50}'}}\n"
        f"    attributes: {{temperature: 0.{i % 10}, model: m{i % 7}}}\n    priority: {i % 5}\n"
        for i in range(n))


GOOD = "rules:\n  - {name: cheap, target: llm, filter: {command: /ask}, attributes: {temperature: 0}}\n"


def test_the_alias_bomb_is_refused_in_one_line_naming_aliases():
    text = bomb()
    assert len(text) < 400
    started = time.monotonic()
    with pytest.raises(UserError) as err:
        parse_policies(text)
    assert time.monotonic() - started < 10          # it took 153 s of CPU; refusing it walks nothing
    line = str(err.value)
    assert "\n" not in line and line.startswith("policies.yaml:")
    assert "aliases expand to more than" in line and f"{MAX_NODES:,}" in line


def test_a_bomb_written_over_good_policies_leaves_them_in_force(tmp_path):
    path = tmp_path / "policies.yaml"
    path.write_text(GOOD)
    book = PolicyBook(path)
    book.refresh()
    path.write_text(bomb())
    os.utime(path, ns=(7, 7))
    assert book.refresh() is True
    assert "aliases expand" in book.error.message
    assert [r.name for r in book.rules] == ["cheap"]


def test_aliases_cannot_nest_deeper_than_the_file_may():
    deep = "&d " + "[" * 15 + "]" * 15
    with pytest.raises(UserError, match="nested more than 20 levels"):
        parse_policies(f"a: {deep}\nb: [[[[[[[[*d]]]]]]]]\n")
    with pytest.raises(UserError, match="refers to itself"):
        parse_policies("a: &r [1, *r]\n")


def test_aliases_and_merge_keys_still_share_settings_between_rules():
    text = ("rules:\n"
            "  - &a {name: a, target: llm, filter: {command: /ask}, attributes: &s {temperature: 0.2, model: small}}\n"
            "  - {name: b, target: llm, filter: {command: /tell}, attributes: {<<: *s, model: big}}\n")
    _, rules = parse_policies(text)
    assert rules[0].attributes == {"temperature": 0.2, "model": "small"}
    assert rules[1].attributes == {"temperature": 0.2, "model": "big"}


def test_ten_thousand_rules_load_and_the_last_one_applies():
    _, rules = parse_policies(many(10_000))
    assert len(rules) == 10_000 and len({r.name for r in rules}) == 10_000
    last = rules[-1]
    assert last.name == "r9999" and last.attributes == {"temperature": 0.9, "model": "m3"}
    assert last.matches({"command": "/ask", "words": 49}) and not last.matches({"command": "/ask", "words": 48})


def test_a_name_used_twice_among_thousands_is_still_refused():
    text = many(3_000) + "  - {name: r17, target: llm, attributes: {model: m}}\n"
    with pytest.raises(UserError, match="rule #3001: the name 'r17' is used twice"):
        parse_policies(text)
