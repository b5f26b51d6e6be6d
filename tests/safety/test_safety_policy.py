"""Policies cannot be turned against the user: a rule sets only what its target allows (never a
host or a path), and a hostile or broken policies.yaml is one clear line, reported when the file
is read and remembered while it stays broken."""

from __future__ import annotations

import os

import pytest

from sym.core.errors import UserError
from sym.core.events import Warning
from sym.core.reason.policy.rules import TARGET_ATTRIBUTES, parse_policies, rule_from_data


def make(target: str, **attributes):
    return rule_from_data({"name": "r", "target": target, "attributes": attributes})


@pytest.mark.parametrize("target", ["llm", "prompter", "reasoner"])
@pytest.mark.parametrize("key", ["ollama_host", "chroma_url", "ollama-host", "data_dir", "export_path"])
def test_no_target_sets_a_host_or_a_path(target, key):
    with pytest.raises(UserError) as err:
        make(target, **{key: "http://127.0.0.1:9"})
    assert "never sets hosts or paths" in err.value.message
    assert key.replace("-", "_") in err.value.message


def test_an_unknown_attribute_is_an_error_naming_it():
    with pytest.raises(UserError) as err:
        make("llm", frobnicate=1)
    assert "unknown attribute 'frobnicate'" in err.value.message and "temperature" in err.value.message


@pytest.mark.parametrize("target, key, value", [("llm", "max_steps", 3), ("llm", "prompter", "causal"),
                                                ("prompter", "proof_attempts", 2), ("reasoner", "llm_cache", False)])
def test_an_attribute_of_another_target_is_refused_with_the_target_that_can(target, key, value):
    with pytest.raises(UserError) as err:
        make(target, **{key: value})
    owners = [t for t, names in TARGET_ATTRIBUTES.items() if key in names]
    assert f"cannot set {key}" in err.value.message and owners[0] in err.value.message


def test_each_target_sets_what_it_allows():
    assert make("llm", model="m", temperature=0.1, llm_timeout=5).attributes["llm_timeout"] == 5.0
    assert make("prompter", prompter="causal").attributes == {"prompter": "causal"}
    assert make("reasoner", mode="paper", max_steps=4).attributes == {"mode": "paper", "max_steps": 4}


@pytest.mark.parametrize("text, words", [
    ("- {name: a, target: llm, attributes: {temperature: !!float x}}", "not a number"),
    ("- {name: a, target: llm, attributes: {temperature: !!float }}", "not a number"),
    ("- {name: a, target: llm, attributes: {model: !!timestamp x}}", "timestamp is not allowed"),
    ("- {name: a, target: llm, attributes: {model: !!binary aGVsbG8=}}", "binary is not allowed"),
    ("- {name: a, target: llm, attributes: {model: !!python/object:os.system x}}", "not allowed"),
    ("- {name: a, target: llm, priority: " + "9" * 5000 + ", attributes: {model: m}}", "5000 digits is too long"),
    ("- {name: a, target: llm, filter: {length: " + "9" * 200 + "}, attributes: {model: m}}", "too long"),
    ("rules: " + "[" * 50 + "]" * 50, "nested more than 20 levels"),
    ("rules: " + "[" * 100_000 + "]" * 100_000, "nested more than 20 levels"),
    ("a:\n" + "".join(" " * i + f"k{i}:\n" for i in range(1, 40)), "nested more than 20 levels"),
])
def test_a_hostile_policies_file_is_one_clear_line(text, words):
    with pytest.raises(UserError) as err:
        parse_policies(text)
    line = str(err.value)
    assert words in line and "\n" not in line and line.startswith("policies.yaml")


def test_a_date_in_plain_text_is_text():
    _, (rule,) = parse_policies("- {name: a, target: llm, attributes: {model: 2024-01-01}}")
    assert rule.attributes["model"] == "2024-01-01"


def test_policy_add_uses_the_same_safe_loader(sym):
    result = sym("/policy add {name: x, target: llm, attributes: {model: !!timestamp 2001-01-01}}")
    assert not result.ok and "timestamp is not allowed" in result.message and "column" in result.message
    result = sym("/policy add {name: x, target: llm, attributes: {ollama_host: 'http://127.0.0.1:9'}}")
    assert not result.ok and "never sets hosts or paths" in result.message


def test_a_broken_file_is_reported_when_read_and_not_forgotten(sym_home):
    from sym.repl.dispatcher import MemoryOptions, open_shell

    events: list = []
    shell = open_shell(MemoryOptions(workspace="w"), record=False, emit=events.append)
    try:
        assert shell.execute("/policy add {name: cool, target: llm, attributes: {temperature: 0.2}}")[1].ok
        from sym.core.memory.workspace import workspace_dir

        path = workspace_dir("w") / "policies.yaml"
        path.write_text("rules:\n  - {name: a, target: llm, attributes: {temperature: !!float x}}\n")
        os.utime(path, ns=(10**18, 10**18))
        events.clear()
        shell.execute("/set world open")            # any input: the changed file is read and reported now
        first = [e.message for e in events if isinstance(e, Warning)]
        assert len(first) == 1 and "policies.yaml:2:" in first[0] and "not a number" in first[0]
        assert "the 1 rules read before stay in force" in first[0]
        events.clear()
        shell.execute("/listing")                    # still broken: still said, in one short line
        again = [e.message for e in events if isinstance(e, Warning)]
        assert again and "still has an error" in again[0]
        listed = shell.execute("/policy list")[1]
        assert "not a number" in listed.error
    finally:
        shell.close()
