"""A reply read only until it is complete (issue 34, cheap samples): `LLM.chat(until=…)` streams
the call and stops reading, and the server generating, once `until(text so far)` holds; an
SMT-LIB program's prose tail is never waited for, and what was kept is what the call log and a
replay hold. Through the real `ollama` client and the protocol test server."""

from __future__ import annotations

import io

from sym.core.reason.pot.smt2_read import script_complete
from sym.repl.dispatcher import MemoryOptions, open_shell
from sym.repl.render import to_text
from sym.repl.replay import replay
from sym.sessions.log import read_session

USER = [{"role": "user", "content": "Write it."}]
SCRIPT = """```smt2
(declare-const tall Bool)
(assert (! tall :named t))
(define-fun is_tall () Bool tall)
(check-sat-assuming (is_tall))
```"""
TAIL = "\nThis script declares a constant and checks it; " + "it goes on at length. " * 40


def test_a_reply_ends_where_until_says_it_is_complete(shell, ollama_server):
    shell.ctx.settings.ollama_host = ollama_server.url
    ollama_server.reply("abc END and then much more", chunks=["abc ", "END", " and", " then", " much", " more"])
    reply = shell.ctx.llm.chat(USER, until=lambda text: "END" in text)
    assert (reply.text, reply.done_reason) == ("abc END", "complete")
    assert ollama_server.last.stream is True
    plain = shell.ctx.llm.chat(USER, options={"seed": 1})          # without until: the whole reply
    assert plain.text == "abc END and then much more"


def test_a_sampled_smt2_program_is_read_to_its_closing_fence_and_replays(ollama_server, sym_home):
    shell = open_shell(MemoryOptions(persistent=False), record=True)
    shell.ctx.settings.ollama_host = ollama_server.url
    ollama_server.reply(SCRIPT + TAIL, chunks=[*SCRIPT.splitlines(keepends=True), *TAIL.split(" ")])
    try:
        shell.execute("/set proof_format smt2")
        _, result = shell.execute("/prove --samples 2 Is it tall?")
        path = shell.ctx.session.path
    finally:
        shell.close()
    assert result.ok and to_text(result).splitlines()[0].startswith("✓ proved"), to_text(result)
    samples = [c for c in read_session(path).llm_calls() if c["purpose"].endswith(".sample")]
    assert len(samples) == 2
    assert all(c["reply"]["text"] == SCRIPT for c in samples), samples[0]["reply"]
    ollama_server.stop()
    report = replay(read_session(path), offline=True, verify=True, out=io.StringIO(), err=io.StringIO())
    assert report.differences == [] and not report.skipped


def test_what_counts_as_a_complete_script():
    assert script_complete(SCRIPT) and script_complete("Here it is:\n" + SCRIPT + "\nIt checks")
    assert not script_complete(SCRIPT[:-3])                                   # the fence has not closed
    bare = "(declare-const a Bool)\n(check-sat-assuming (a))\n"
    assert not script_complete(bare)                                          # more forms may follow
    assert script_complete(bare + "The script above checks a.")               # prose: the script is over
    assert not script_complete(bare + "(check-sat-assuming ")                 # a second check is under way
    assert not script_complete("Here is the script:\n(declare-const a Bool)\n(check-sat")
    assert not script_complete('(assert (= s "a)\nb"))\n(check-sat)\n')      # a parenthesis in a string
    assert script_complete('(assert (= s "a)\nb"))\n(check-sat)\nDone')
