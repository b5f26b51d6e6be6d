"""Properties of `extract_json`: whatever JSON a model wraps in prose or fences comes back whole,
and a reply cut off mid-value is reported as cut off — never answered with a value inside it."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sym.core.llm.jsonout import CUT_OFF, BadJSON, extract_json, scan

QUICK = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# strings a model writes: braces, brackets, fences, quotes and escapes included
TEXT = st.lists(st.sampled_from(list('ab {}[]"\\`:,\n') + ["```", "é"]), max_size=8).map("".join)
SCALAR = st.none() | st.booleans() | st.integers(-10**6, 10**6) | TEXT
VALUE = st.recursive(SCALAR, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
                     max_leaves=20)
OBJECT = st.dictionaries(TEXT, VALUE, min_size=1, max_size=4)
# prose around the JSON: anything but an opening bracket
PROSE = st.lists(st.sampled_from(list("Here is the JSON:`'\".!?)}] \n") + ["```json\n"]), max_size=12).map("".join)


@QUICK
@given(OBJECT, PROSE, PROSE, st.booleans(), st.booleans())
def test_an_object_in_prose_or_a_fence_comes_back_whole(value, before, after, fenced, indented):
    body = json.dumps(value, indent=2 if indented else None, ensure_ascii=False)
    if fenced:
        body = f"```json\n{body}\n```"
    assert extract_json(f"{before}{body}{after}", want=dict) == value


@QUICK
@given(OBJECT, PROSE, st.data())
def test_every_cut_of_an_object_is_reported_as_cut_off(value, before, data):
    body = json.dumps(value, ensure_ascii=False)
    cut = data.draw(st.integers(1, len(body) - 1))
    with pytest.raises(BadJSON, match=CUT_OFF):
        extract_json(before + body[:cut], want=dict)


@QUICK
@given(st.lists(OBJECT, min_size=1, max_size=3), PROSE)
def test_the_top_level_values_are_found_in_order(values, glue):
    text = glue.join(json.dumps(v) for v in values)
    assert scan(f"{glue}{text}{glue}").values == values


@QUICK
@given(st.text(alphabet=st.sampled_from(list('{}[]",: ab\\')), max_size=300))
def test_any_reply_gives_a_value_or_one_bad_json_line(text):
    try:
        value = extract_json(text)
    except BadJSON as err:
        assert "\n" not in str(err)
    else:
        assert isinstance(value, (dict, list))


def test_fences_inside_a_string_do_not_split_the_object():
    assert extract_json('{"a": "x```{}```y"}') == {"a": "x```{}```y"}
    assert extract_json('Sure: {"a": "x```{}```y"} — done') == {"a": "x```{}```y"}


def test_a_cut_reply_is_not_answered_with_an_object_nested_inside_it():
    with pytest.raises(BadJSON, match=CUT_OFF):
        extract_json('{"facts": [{"text": "big(bob)."}, {"text": "red(', want=dict)


def test_a_one_item_list_around_the_object_is_unwrapped():
    assert extract_json('[{"name": "Bob"}]', want=dict) == {"name": "Bob"}


@pytest.mark.parametrize("text", ["[" * 100_000, "[]" * 50_000, "{" * 100_000, '"' * 100_000,
                                  "{" * 50_000 + "}" * 50_000, '{"a": "' + "\\" * 100_000],
                         ids=["open", "pairs", "braces", "quotes", "nested", "escapes"])
def test_100_kb_of_brackets_gives_an_answer(text):
    # speed is measured by benchmarks; here: no RecursionError, no hang, one clear outcome
    try:
        extract_json(text, want=dict)
    except BadJSON as err:
        assert "\n" not in str(err)


@QUICK
@given(st.lists(st.sampled_from(["a", " ", "\n", "\t", "\r", "x_1"]), max_size=10).map("".join))
def test_raw_line_breaks_and_tabs_inside_strings_are_kept_as_written(inner):
    """Small models put a raw newline or tab in a string; json.loads' strict mode rejects it."""
    reply = '{"assertion": "' + inner + '", "value": true}'
    assert extract_json(reply) == {"assertion": inner, "value": True}
