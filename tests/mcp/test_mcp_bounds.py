"""What one `sym mcp` call may leave behind, through the SDK's own client: a program sent as text is
size-checked before anything is written and nothing stays on disk for a refused one (a read-only
server writes none at all); one constant is stored up to mcp.max_constant_kb, one call stores up to
mcp.facts_per_call facts and rules; each refusal is one line and memory stays as it was.
"""

from __future__ import annotations

import pytest

from sym.core.settings import Settings
from tests.mcp.test_mcp import Client, ok, refused, text

PROGRAM_OK = "(declare-const p Bool) (assert p) (check-sat-assuming (p))"


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    root = tmp_path_factory.mktemp("bounds")
    home, work = root / "home", root / "work"
    home.mkdir()
    work.mkdir()
    (home / "config.toml").write_text("[settings]\nmax_file_mb = 0.05\nmcp_facts_per_call = 50\n")
    return {"home": home, "work": work, "programs": home / "workspaces" / "bounded" / "mcp"}


@pytest.fixture(scope="module")
def server(sym_exe, place):
    with Client(sym_exe, place["home"], place["work"], "--memory", "bounded") as client:
        yield client
    assert "Traceback" not in client.stderr(), client.stderr()


def programs(place) -> list[str]:
    folder = place["programs"]
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_the_caps_default_to_64_kb_a_constant_and_10000_facts_a_call():
    settings = Settings()
    assert (settings.mcp_max_constant_kb, settings.mcp_facts_per_call) == (64.0, 10_000)


def test_a_program_over_max_file_mb_is_refused_before_anything_is_written(server, place):
    big = "; " + "x" * 60_000 + "\n" + PROGRAM_OK                 # 0.06 MB; max_file_mb is 0.05
    for _ in range(3):
        refused(server.call("prove", program=big), "MB", "0.05")
    assert programs(place) == []


def test_a_program_whose_proof_fails_leaves_no_file_and_one_that_runs_stays(server, place):
    refused(server.call("prove", program="(assert (> x"))                       # not SMT-LIB: no file stays
    refused(server.call("prove", program='{"verifications": "none"}', format="json"))
    assert programs(place) == []
    proved = ok(server.call("prove", program=PROGRAM_OK))
    assert proved["verifications"][0]["status"] == "proved"
    (kept,) = programs(place)
    assert kept.startswith("program-") and kept.endswith(".smt2")
    assert ok(server.call("prove", program=PROGRAM_OK))["verifications"][0]["status"] == "proved"
    assert programs(place) == [kept]                                        # the same text, the same file


def test_a_constant_over_64_kb_is_refused_and_memory_stays_as_it_was(server):
    before = ok(server.call("listing"))["items"]
    message = refused(server.call("fact", clauses=f"note('{'a' * 70_000}')."), "64 KB")
    assert len(message) < 120, message           # the 70 KB atom is not echoed back
    refused(server.call("rule", clauses=f"big(X) :- note(X), X = '{'b' * 70_000}'."), "64 KB")
    assert ok(server.call("listing"))["items"] == before
    stored = ok(server.call("fact", clauses=f"note('{'c' * 60_000}')."))       # under the cap: stored
    assert len(stored["added"]) == 1


def test_more_facts_than_one_call_may_store_are_refused_in_one_line(server, place):
    before = len(ok(server.call("listing"))["items"])
    facts = " ".join(f"n({i})." for i in range(51))
    refused(server.call("fact", clauses=facts), "at most 50", "51")
    (place["work"] / "many.pl").write_text("\n".join(f"m({i})." for i in range(60)) + "\n")
    result = server.call("consult", file="many.pl")
    refused(result, "at most 50", "60")
    assert "mcp_facts_per_call" in result.structured_content["hint"]
    assert len(ok(server.call("listing"))["items"]) == before
    assert len(ok(server.call("fact", clauses=" ".join(f"n({i})." for i in range(50))))["added"]) == 50
    assert "Traceback" not in text(result)


def test_a_read_only_server_takes_no_program_text_and_writes_no_file(sym_exe, tmp_path):
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    (work / "p.smt2").write_text(PROGRAM_OK)
    with Client(sym_exe, home, work, "--read-only") as client:
        prove = {t.name: t for t in client.run(lambda s: s.list_tools()).tools}["prove"]
        assert "program" not in prove.input_schema["properties"]
        refused(client.call("prove", program=PROGRAM_OK), "read-only", "no program")
        assert ok(client.call("prove", file="p.smt2"))["verifications"][0]["status"] == "proved"
    assert not list(home.rglob("program-*")) and not (home / "workspaces" / "default" / "mcp").exists()
