"""Text with lone surrogates, NULs and mixed line ends, fed to every reader (logic, JSON programs,
SMT-LIB scripts, model JSON, session logs, files) and through every backend path (Ollama and
OpenAI-compatible, whole and streamed, and the call log): each either reads it or refuses it with
one UserError, never an encoding error, and what is kept is valid UTF-8."""

from __future__ import annotations

import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sym.core.errors import UserError
from sym.core.files import read_text_file
from sym.core.llm import LLMError
from sym.core.llm.calllog import CallLog
from sym.core.llm.jsonout import BadJSON, extract_json
from sym.core.logic.parser import parse_program
from sym.core.reason.pot.schema import load_program
from sym.core.reason.pot.smt2_read import Smt2Program
from sym.core.reason.pot.smt2_steps import build_smt2
from sym.core.run import Run
from sym.core.settings import Settings
from sym.core.text import valid, valid_json
from sym.sessions.log import FORMAT, read_session
from tests.ollama_server import OllamaServer
from tests.openai_server import OpenAIServer

CI = settings(max_examples=60, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
SERVED = settings(max_examples=25, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
ODD = st.sampled_from(["\ud800", "\udfff", "\udbff", "\udc00", "\x00", "\r", "\r\n", "\n", "\ud83d\ude00", "é",
                       "東", "\ufffd", "\\ud800", "\\u0000", '"', "\\"])
texts = st.lists(st.one_of(ODD, st.text(max_size=8)), max_size=12).map("".join)
_LONE = re.compile("[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\x00")


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return "\x00" not in text


@CI
@given(texts)
def test_valid_text_encodes_has_no_nul_or_cr_and_counts_what_it_replaced(text):
    out, n = valid(text)
    assert _encodes(out) and "\r" not in out
    assert n == len(_LONE.findall(text)) == out.count("\ufffd") - text.count("\ufffd")
    assert valid(out) == (out, 0)                                # valid text is left as it is
    kept, m = valid(text, line_ends=False)
    assert m == n and kept.count("\r") == text.count("\r")


@CI
@given(st.recursive(texts, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
                    max_leaves=12))
def test_every_string_of_a_json_value_is_made_valid(value):
    out, n = valid_json(value)
    json.dumps(out, ensure_ascii=False).encode("utf-8")          # raises on any lone surrogate
    assert n == _count(value)


def _count(value) -> int:
    if isinstance(value, str):
        return len(_LONE.findall(value))
    if isinstance(value, list):
        return sum(map(_count, value))
    if isinstance(value, dict):
        return sum(_count(k) + _count(v) for k, v in value.items())
    return 0


@CI
@given(texts)
def test_the_logic_parser_reads_or_refuses_any_text(text):
    try:
        parse_program(f"p('{text}').\nq({text}).")
    except UserError:
        pass


@CI
@given(texts)
def test_a_json_program_holding_any_text_loads_or_is_one_user_error(text):
    program = json.loads(open("examples/height.json", encoding="utf-8").read())
    program["description"] = text
    program["verifications"][0]["name"] = text or "v"
    for data in (json.dumps(program), json.dumps(program, ensure_ascii=False)):
        try:
            loaded = load_program(data)
        except UserError:
            continue
        assert _encodes(loaded.model_dump_json())


@CI
@given(texts)
def test_an_smt2_script_holding_any_text_is_read_or_one_smt2_error(text):
    script = f"; {text}\n(declare-const a{text} Int)\n(assert (! (= a 1) :named |{text}|))\n(check-sat)\n"
    try:
        build_smt2(Smt2Program(script))
    except UserError:
        pass


@CI
@given(texts)
def test_json_found_in_a_model_reply_holds_only_valid_text(text):
    for reply in (json.dumps({"k": text, text: [text]}), json.dumps({"k": text}, ensure_ascii=False)):
        try:
            value = extract_json(reply)
        except BadJSON:
            continue
        json.dumps(value, ensure_ascii=False).encode("utf-8")


@CI
@given(texts)
def test_a_session_log_holding_any_text_reads_or_is_one_user_error(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("log") / "s.jsonl"
    events = [{"t": "header", "seq": 1, "format": FORMAT, "sym": "0", "workspace": "default", "settings": {}},
              {"t": "input", "seq": 2, "text": text, "source": "typed"}]
    path.write_text("\r\n".join(json.dumps(e) for e in events) + "\n", encoding="utf-8")
    try:
        read_session(path)
    except UserError:
        pass


@CI
@given(texts)
def test_a_text_file_with_mixed_line_ends_reads_or_is_one_user_error(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("f") / "t.txt"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    try:
        read_text_file(path)
    except UserError:
        pass


@CI
@given(texts)
def test_the_call_log_keeps_any_text_as_valid_text(tmp_path_factory, text):
    log = CallLog(tmp_path_factory.mktemp("calls") / "calls.sqlite")
    row = log.record(key="k", model=f"m{text}", purpose="p", messages=[{"role": "user", "content": text}],
                     options={}, output=text, error=text or None)
    assert row is not None
    [kept] = log.recent(1)
    assert _encodes(kept["output"]) and _encodes(kept["model"])
    log.close()


def test_both_backends_whole_and_streamed_take_any_reply_text():
    """A real server of each protocol, its reply any generated text: the reply the client gets is
    valid text (or the call fails with one LLMError), never an encoding error."""
    with OllamaServer() as ollama, OpenAIServer() as openai:
        servers = [("ollama", ollama), ("openai", openai)]

        @SERVED
        @given(texts, st.sampled_from(servers), st.booleans(), st.booleans())
        def check(text, named, streamed, structured):
            backend, server = named
            server.clear()
            server.default = text
            run = Run(Settings(backend=backend, llm_retries=0, llm_timeout=10, llm_cache=False,
                               **({"base_url": server.url} if backend == "openai" else {"ollama_host": server.url})))
            llm = run.llm
            message = [{"role": "user", "content": text}]
            try:
                if streamed:
                    reply = llm.stream(message)
                else:
                    reply = llm.chat(message, format={"type": "object"} if structured else None)
            except LLMError:
                return
            assert _encodes(reply.text) and "\r" not in reply.text

        check()


def test_keys_that_differ_only_in_invalid_characters_keep_the_later_value_and_count_all():
    out, n = valid_json(dict([("\ud800", "\ud800"), ("\udfff", "")]))      # found by the property above
    assert out == {"\ufffd": ""} and n == 3
