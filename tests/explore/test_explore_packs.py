"""Prompter packs: the built-in TOML files load; malformed ones are one clear line."""

from __future__ import annotations

import pytest

from sym.plugins.prompters import BUILTIN_DIR, PackError, add_pack, load_pack
from sym.repl.registry import Registry

GOOD = '[prompts]\nor = "alternatives for $g in $context"\nand = "parts of $g"\n'


def test_every_builtin_pack_loads_and_the_seven_kinds_are_there():
    names = {load_pack(p).name for p in BUILTIN_DIR.glob("*.toml")}
    assert {"causal", "consequence", "planning", "recommendation", "science", "pro", "con"} <= names


def test_a_pack_is_named_after_its_file_unless_it_says_otherwise(tmp_path):
    (tmp_path / "My-Pack.toml").write_text(GOOD)
    pack = load_pack(tmp_path / "My-Pack.toml")
    assert pack.name == "my-pack" and pack.or_items == 3
    assert pack.prompter().and_prompt == "parts of $g"


@pytest.mark.parametrize("text, field, problem", [
    ('[prompts]\nor = "x $g"\n', "prompts.and", "Field required"),
    ('[prompts]\nor = "x $g $colour"\nand = "$g"\n', "prompts.or", "unknown variable $colour"),
    ('[prompts]\nor = "list things"\nand = "$g"\n', "prompts.or", "never mentions the goal $g"),
    ('[prompts]\nor = "$g costs 5$"\nand = "$g"\n', "prompts.or", "write $$ for a dollar sign"),
    ('or_items = 99\n[prompts]\nor = "$g"\nand = "$g"\n', "or_items", "less than or equal to 10"),
    ('[prompts]\nor = "$g"\nand = "$g"\nrator = "$g"\n', "prompts.rator", "Extra inputs"),
    ('[prompts]\nor = "$g"\nand = "$g"\nconstraint = "conflicts?"\n', "prompts.constraint", "$items"),
])
def test_a_malformed_pack_names_the_file_and_the_field(tmp_path, text, field, problem):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(PackError) as err:
        load_pack(path)
    message = str(err.value)
    assert message.startswith(f"prompter pack {path}: {field}: ") and problem in message
    assert "\n" not in message


def test_toml_syntax_errors_say_where(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("[prompts\nor = 1\n")
    with pytest.raises(PackError, match=r"broken.toml: not valid TOML: .*line 1"):
        load_pack(path)


def test_a_plugin_adds_a_pack_to_a_registry():
    reg = Registry()
    pack = add_pack(reg, {"name": "mine", "prompts": {"or": "$g?", "and": "$g!"}}, origin="plugin demo")
    assert pack.name == "mine" and reg.prompters["mine"].origin == "plugin demo"
    with pytest.raises(PackError, match="from plugin demo: prompts.or"):
        add_pack(reg, {"name": "bad", "prompts": {"and": "$g"}}, origin="plugin demo")
