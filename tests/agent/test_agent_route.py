"""Routing a small model can do (issue 53): the menu's reply is keyed by the sentences' numbers;
a statement picked for /math or /prove is told, a question asked; /math takes only a math
expression (English is refused with a pointer to /tell and /prove); a math step may write only
the sentence's own expression; and each command's result sits under its own call line."""

from __future__ import annotations

from sym.repl.render import to_text
from tests.conftest import fails, texts

DESIGN = "All of Kelly Wearstler's design styles are dreamy."


def test_math_refuses_english_with_a_pointer_and_still_computes_math(sym):
    message = fails(sym(f"/math integrate {DESIGN}"), "math expression", "English")
    assert "integrate" not in message or "dreamy" not in message
    assert "/tell" in sym(f"/math integrate {DESIGN}").hint and "/prove" in sym("/math expand every cat sleeps").hint
    assert to_text(sym("/math integrate x**2 wrt x")) == "x**3/3"
    assert to_text(sym("/math factor x**2 - 1")) == "(x - 1)*(x + 1)"


def test_a_statement_picked_for_math_or_prove_is_told_not_computed(routed_auto):
    """Seen with the reference model: the design premise went to /math (and `integrate x**2` was
    computed), "Every mammal needs water." to /prove."""
    routed_auto.server.reply('{"1": "math", "2": "prove", "3": "ask"}', when="Its sentences:")
    routed_auto.server.reply('{"operation": "integrate", "expression": "x**2"}', when=lambda r: "sympy" in r.system)
    routed_auto.server.reply("Rex needs water.", when="sym ran:")
    r = routed_auto("Every dog is a mammal. Every mammal needs water. Rex is a dog? ")
    assert r.calls[0].line == "/tell Every dog is a mammal. Every mammal needs water."
    assert not any(c.tool in ("math", "prove") for c in r.calls)
    assert not any("sympy" in c.system for c in routed_auto.server.chats)      # no math step was even asked for
    assert "needs_water(X) :- mammal(X)." in texts(routed_auto.shell.memory) or len(routed_auto.shell.memory.items) == 2


def test_the_menu_reply_is_keyed_by_number_a_copied_sentence_read_by_its_number(routed_auto):
    routed_auto.server.reply('{"1": "tell"}', when="use the sentences' numbers")
    routed_auto.server.reply('{"1. Bob is kind.": "tell", "2": "ask"}', when="Its sentences:")
    r = routed_auto("Bob is kind. Is Bob kind?")
    menu = [c for c in routed_auto.server.chats if c.format][0]
    assert list(menu.format["properties"]) == ["1", "2"] and '{"1": "tell"' in menu.system
    assert r.invalid == 0 and [c.line for c in r.calls] == ["/tell Bob is kind.", "/ask Is Bob kind? --no-fallback"]
    assert "kind(bob)." in texts(routed_auto.shell.memory) and r.calls[1].verdict == "true"
    routed_auto.server.clear()
    routed_auto.server.reply('{"1": "tell", "2": "ask"}', when="use the sentences' numbers")
    routed_auto.server.reply('{"Bob is kind.": "tell"}', when="Its sentences:")
    r = routed_auto("Bob is kind. Is Bob kind?")
    assert r.invalid == 1 and r.calls[-1].verdict == "true"          # a key with no number went back once


def test_a_math_step_that_writes_an_expression_the_sentence_does_not_is_refused(routed):
    routed.server.reply('{"1": "math"}', when="Its sentences:")
    routed.server.reply('{"operation": "integrate", "expression": "x**2"}', when=lambda r: "sympy" in r.system)
    r = routed("Factor y**2 - 4.")
    assert [c.status for c in r.calls] == ["bad call"] and "'x' is not in the sentence" in to_text(r)
    repair = [c for c in routed.server.chats if "sympy" in c.system][-1]
    assert "'x' is not in the sentence" in repair.last_user


def test_each_result_sits_under_its_own_call_line(routed_auto):
    """A /tell's failure was printed under the last call (`→ /ask … unknown`)."""
    routed_auto("/set llm.retries 0")
    routed_auto.server.reply('{"1": "tell", "2": "ask"}', when="Its sentences:")
    routed_auto.server.fail("server", when=lambda r: "Its sentences:" not in r.last_user and "sym ran:" not in r.last_user,
                            times=None)
    r = routed_auto("Bob sits between Al and Sue. Is Bob kind?")
    shown = to_text(r).splitlines()
    tell = next(i for i, line in enumerate(shown) if line.startswith("→ /tell"))
    ask = next(i for i, line in enumerate(shown) if line.startswith("→ /ask"))
    assert tell < ask and any(line.startswith("  error:") for line in shown[tell + 1:ask]), shown
    assert not any(line.startswith("  error:") for line in shown[ask + 1:]), shown


def test_prove_takes_a_claim_a_statement_called_with_it_goes_back_to_the_model(llm_sym):
    from tests.agent.test_agent import tool_results

    llm_sym.server.reply(tool_calls=[{"name": "prove", "arguments": {"question": "Every mammal needs water."}}],
                         when=tool_results(0))
    llm_sym.server.reply("I will tell it instead.", when=tool_results(1))
    r = llm_sym("Every mammal needs water.")
    [call] = r.calls
    assert call.status == "bad call" and "prove takes a claim to check" in to_text(r)
    told = [m["content"] for m in llm_sym.server.chats[-1].messages if m.get("role") == "tool"]
    assert "tell a statement with tell" in told[0]
    assert not [c for c in llm_sym.server.chats if c.format is not None]       # no program was asked for
