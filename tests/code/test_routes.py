"""A subscriber's table of routes: an event goes to the handler of its type, or of its nearest base."""

from __future__ import annotations

from dataclasses import dataclass

from sym.core.events import ItemAdded, ItemRemoved, LLMCall, Progress, TraceNode, Warning
from sym.core.routes import Routes


def test_an_event_reaches_the_handler_of_its_type_and_no_other():
    seen: list = []
    routes = Routes({ItemAdded: lambda e: seen.append(("added", e.item_id)),
                     (TraceNode, LLMCall): lambda e: seen.append(("trace", type(e).__name__))})
    routes(ItemAdded("f1", "fact", "p(a).", "typed"))
    routes(TraceNode("ask-1", "n1", None, "why", "label"))
    assert routes(ItemRemoved("f1", "fact", "p(a).")) is None      # not in the table: nothing happens
    assert routes(Warning("careful")) is None
    assert seen == [("added", "f1"), ("trace", "TraceNode")]
    assert TraceNode in routes and LLMCall in routes and Progress not in routes


def test_a_subclass_is_routed_by_its_nearest_base_and_its_own_entry_wins():
    @dataclass(frozen=True)
    class Loud(Warning):
        pass

    @dataclass(frozen=True)
    class Louder(Loud):
        pass

    seen: list = []
    routes = Routes({Warning: lambda e: seen.append("warning"), Louder: lambda e: seen.append("louder")})
    routes(Loud("a"))
    routes(Louder("b"))
    routes(Warning("c"))
    assert seen == ["warning", "louder", "warning"]


def test_the_handlers_answer_is_returned():
    routes = Routes({Progress: lambda e: e.done * 2})
    assert routes(Progress("parsing", 3, 10)) == 6
