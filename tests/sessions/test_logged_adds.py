"""A large add is logged as the digest it always had, written from the items' strings: the same
length and sha256 as bounding its whole payload, so replays of older sessions still compare."""

from __future__ import annotations

from sym.core.logic.terms import Atom
from sym.core.memory.items import made
from sym.repl.results import Added
from sym.sessions.bounds import TEXT_LIMIT, bound_payload


def items(n: int, *, extra: list[tuple[str, str]] = ()):
    out = [made(f"f{i:012x}", "fact", Atom("parent_of", (f"p{i % 97}", f"p{i}")), "", f"big.pl:{i + 1}",
                1000.0 + i, f"parent_of(p{i % 97}, p{i}).") for i in range(n)]
    for k, (text, nl) in enumerate(extra):
        out.append(made(f"r{k:012x}", "rule", Atom("q", ()), nl, "typed", 5.0, text))
    return out


def the_old_way(result: Added, command: str = "/consult") -> dict:
    return bound_payload({"command": command, "ok": result.ok, "kind": result.kind, **result.log_dict()})


def test_a_large_consult_is_logged_as_the_digest_of_its_whole_payload():
    odd = [("q(\"quoted\", 'it''s', é, \\\\).", "Ünïcode said \u2603"), ("x" * (TEXT_LIMIT + 10), ""),
           ("lone \udc80 surrogate", "")]
    result = Added(items(40_000, extra=odd), duplicates=3, source="big.pl", notes=["a note"], warnings=["w"])
    logged = result.log_payload("/consult")
    assert set(logged) == {"command", "ok", "kind", "bounded"}
    assert logged == the_old_way(result)


def test_a_small_add_is_logged_whole_as_before():
    result = Added(items(1_200), source="small.pl")
    logged = result.log_payload("/consult")
    assert "bounded" not in logged and len(logged["added"]) == 1_200
    assert logged == the_old_way(result)
    few = Added(items(3))
    assert few.log_payload("/fact") == the_old_way(few, "/fact")
