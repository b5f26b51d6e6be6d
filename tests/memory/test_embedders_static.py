"""The `static` embedder (weights inside the tokenlearn-static-model wheel): meaning, not spelling,
offline, and the default for new workspaces only."""

from __future__ import annotations

import math

import pytest

from sym.core.errors import UserError
from sym.core.memory.embedders import HashEmbedder, StaticEmbedder, cosine, default_embedder, make_embedder
from sym.repl.dispatcher import MemoryOptions, open_shell
from tests.ollama_server import unused_url

CARS = ("Cars need regular care. Change the engine oil, check the tyre pressure and the brakes, "
        "and take the vehicle to a garage for a service every year.")
COOKING = ("A risotto takes patience: stir the rice, add warm stock a ladle at a time, "
           "and finish it with butter and parmesan.")


@pytest.fixture
def offline(monkeypatch):
    """No model server anywhere: any attempt to reach one fails."""
    monkeypatch.setenv("OLLAMA_HOST", unused_url())
    monkeypatch.setenv("SYM_BASE_URL", unused_url())


def test_static_vectors_have_unit_length_and_are_the_same_each_time():
    e = make_embedder("static")
    assert e.name == "static" and isinstance(e, StaticEmbedder)
    first = e.embed(["Bob is big.", "father_of(joshua, don)"])
    assert first == StaticEmbedder().embed(["Bob is big.", "father_of(joshua, don)"])
    assert all(len(v) == 64 and math.isclose(math.sqrt(sum(x * x for x in v)), 1.0, rel_tol=1e-5) for v in first)
    assert e.embed([]) == []
    (empty,) = e.embed([""])
    assert empty == [0.0] * 64


def test_static_finds_meaning_that_hash_cannot():
    for embedder, semantic in ((StaticEmbedder(), True), (HashEmbedder(), False)):
        query, cars, cooking = embedder.embed(["automobile", CARS, COOKING])
        assert (cosine(query, cars) > cosine(query, cooking) + 0.2) is semantic, embedder.name


def test_an_unknown_spec_lists_static_among_the_choices():
    with pytest.raises(UserError) as err:
        make_embedder("static:big")
    assert "static" in err.value.hint


def test_a_new_workspace_searches_by_meaning_with_no_server_running(offline, tmp_path):
    (tmp_path / "cars.md").write_text(CARS + "\n")
    (tmp_path / "cooking.md").write_text(COOKING + "\n")
    shell = open_shell(MemoryOptions("garage"))
    try:
        assert default_embedder() == "static" and shell.memory.store.embedder.name == "static"
        for name in ("cooking.md", "cars.md"):
            assert shell.execute(f"/load {tmp_path / name}")[1].ok
        hits = shell.execute("/search automobile --kind docs")[1].to_dict()["hits"]
        assert [h["source"] for h in hits] == ["cars.md", "cooking.md"]
        assert hits[0]["score"] > hits[1]["score"]
    finally:
        shell.close()


def test_an_existing_workspace_keeps_its_embedder_until_reindexed(offline):
    shell = open_shell(MemoryOptions("old", embedder="hash"))
    try:
        assert shell.execute("likes(ann, tea).")[1].ok
    finally:
        shell.close()
    shell = open_shell(MemoryOptions("old"))            # no --embedder: the one it was built with
    try:
        assert shell.memory.store.embedder.name == "hash"
        result = shell.execute("/reindex static")[1]
        assert result.ok and result.to_dict()["embedder"] == "static"
    finally:
        shell.close()
    shell = open_shell(MemoryOptions("old"))
    try:
        assert shell.memory.store.embedder.name == "static"
        assert [it.text for it in shell.memory.listing()] == ["likes(ann, tea)."]
    finally:
        shell.close()
