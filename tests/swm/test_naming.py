"""How a thing was written is read from the first stored sentence naming it, and follows memory
as items are removed and stored again (the index behind it is kept, not rebuilt per sentence)."""

from __future__ import annotations

from sym.core.logic.terms import Atom
from sym.core.memory.working import WorkingMemory
from sym.core.reason.swm.naming import written


def test_how_a_thing_was_written_follows_what_memory_holds():
    memory = WorkingMemory("naming")
    first = memory.add([(Atom("big", ("mouse",)), "tell")], nl="The mouse is big.").items
    memory.add([(Atom("red", ("rex",)), "tell")], nl="Rex is red.")
    assert written(memory, ["mouse", "rex", "nobody"]) == {"mouse": "the mouse", "rex": "Rex"}
    memory.remove([first[0].id])
    assert written(memory, ["mouse"]) == {}
    memory.add([(Atom("small", ("mouse",)), "tell")], nl="Mouse is small.")
    assert written(memory, ["mouse"]) == {"mouse": "Mouse"}
    memory.add([(Atom("big", ("mouse",)), "tell")], nl="The mouse is big.")   # stored again, after
    assert written(memory, ["mouse"]) == {"mouse": "Mouse"}
