"""Hybrid retrieval: the keyword index in the snapshot (built, kept in step, rebuilt for an old
workspace), BM25 without FTS5, rank fusion, and snippets at the best-matching sentence."""

from __future__ import annotations

import sqlite3

import pytest

from sym.core.memory import keywords
from sym.core.memory.retrieval import (
    MARK_CLOSE,
    MARK_OPEN,
    best_snippet,
    bm25_ranking,
    decided,
    fts_query,
    full_depth,
    fuse,
    keyword_ranking,
    query_terms,
    sentences,
    stem,
)
from sym.core.memory.snapshot import Snapshot
from sym.core.memory.store import Record

PASSAGES = {
    "p1": "Automobiles used by the field team must be checked every week: tyres, brakes and fuel.",
    "p2": "Exit codes: 0 ok, 1 a command failed, 2 usage error. The batch runner prints results on stdout.",
    "p3": "The weather was cold and wet, and the river was high after the storms.",
    "p4": "With --bail, stop at the first failing command and exit with its code.",
}


def passage(iid: str, text: str, heading: str = "", name: str = "notes.md") -> Record:
    return Record(iid, text, {"doc_id": "d1", "name": name, "heading": heading, "index": int(iid[1:]) - 1})


@pytest.fixture
def snap(tmp_path):
    s = Snapshot(tmp_path / "items.sqlite")
    s.put_records("docs", [passage(i, t) for i, t in PASSAGES.items()])
    yield s
    s.close()


def ids(ranking) -> list[str]:
    return [r.id for r, _ in ranking]


# -- the keyword index in the snapshot --------------------------------------------------------

def test_sqlite_here_has_fts5_and_a_new_snapshot_indexes_its_passages(snap):
    assert keywords.fts_available() and snap.fts
    assert ids(snap.keyword_search(fts_query(query_terms("exit codes")), 10))[0] == "p2"


def test_the_keyword_index_follows_every_change_in_the_same_transaction(snap):
    snap.put_records("docs", [passage("p3", "Cars and vans are parked by the mill.")])        # replaced
    assert ids(snap.keyword_search('"river"', 10)) == []
    assert ids(snap.keyword_search('"car"', 10)) == ["p3"]                                       # stemmed
    snap.update_meta("docs", [passage("p3", PASSAGES["p3"], heading="Vehicles")])
    assert ids(snap.keyword_search('"vehicles"', 10)) == ["p3"]                                 # the heading
    snap.delete_records("docs", ["p3"])
    assert ids(snap.keyword_search('"car"', 10)) == []
    with pytest.raises(RuntimeError), snap.unit():
        snap.put_records("docs", [passage("p9", "A zebra crossing.")])
        raise RuntimeError("the command failed")
    assert ids(snap.keyword_search('"zebra"', 10)) == []                                         # rolled back too


def test_a_workspace_from_before_the_index_gets_it_built_from_its_passages_on_open(tmp_path):
    path = tmp_path / "items.sqlite"
    old = Snapshot(path)
    old.put_records("docs", [passage(i, t) for i, t in PASSAGES.items()])
    old.close()
    with sqlite3.connect(path) as db:            # as an older sym left it: no index, no mark
        db.execute("DROP TABLE docs_fts")
        db.execute("DELETE FROM meta WHERE key = 'fts'")
    reopened = Snapshot(path)
    try:
        assert ids(reopened.keyword_search('"weather"', 10)) == ["p3"]
        assert reopened.meta("fts") == keywords.FTS_VERSION
    finally:
        reopened.close()


def test_passages_an_older_sym_wrote_without_the_index_are_indexed_on_open(tmp_path):
    path = tmp_path / "items.sqlite"
    fresh = Snapshot(path)
    fresh.meta("format")            # opened: the file and its tables are made
    fresh.close()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO records VALUES ('docs', 'p5', 'A heron stood in the shallows.', '{}')")
    reopened = Snapshot(path)
    try:
        assert ids(reopened.keyword_search('"heron"', 10)) == ["p5"]
    finally:
        reopened.close()


def test_without_fts5_keyword_ranking_falls_back_to_bm25_over_the_stored_passages(tmp_path, monkeypatch):
    monkeypatch.setattr(keywords, "fts_available", lambda: False)
    s = Snapshot(tmp_path / "items.sqlite")
    try:
        s.put_records("docs", [passage(i, t) for i, t in PASSAGES.items()])
        assert not s.fts

        class Store:
            snapshot = s

            def all(self, kind):
                return s.records(kind)

        assert ids(keyword_ranking(Store(), "what are the exit codes"))[0] == "p2"
    finally:
        s.close()


# -- BM25, words, fusion -------------------------------------------------------------------

def test_bm25_ranks_the_passage_with_the_rarer_words_first():
    records = [passage(i, t) for i, t in PASSAGES.items()]
    assert ids(bm25_ranking(records, ["exit", "code"]))[:2] == ["p2", "p4"]
    assert ids(bm25_ranking(records, ["automobile"])) == ["p1"]
    assert bm25_ranking(records, ["zebra"]) == []


def test_query_terms_drop_function_words_unless_nothing_else_is_left():
    assert query_terms("What are the exit codes of sym?") == ["exit", "codes", "sym"]
    assert query_terms("the") == ["the"]
    assert fts_query(["exit", "codes"]) == '"exit" OR "codes" OR "exit codes"'
    assert fts_query(['say"x']) == '"say""x"'


@pytest.mark.parametrize("a, b", [("cars", "car"), ("codes", "code"), ("running", "run"), ("classes", "class"),
                                  ("parsed", "parse"), ("automobiles", "automobile")])
def test_a_word_and_its_forms_share_a_stem(a, b):
    assert stem(a) == stem(b)


def test_rank_fusion_lets_a_keyword_rank_outweigh_a_meaning_rank_and_scales_to_one():
    fused = fuse([(["a", "b", "c"], 5, 1.0), (["c", "d", "e"], 60, 0.5)])
    order, score = [i for i, _ in fused], dict(fused)
    assert order == ["a", "b", "c", "d", "e"]                 # found by meaning only: after every keyword hit
    assert dict(fuse([(["a", "b", "c"], 5, 1.0)]))["c"] < score["c"]   # meaning adds to a keyword hit
    assert dict(fuse([(["x"], 5, 1.0), (["x"], 60, 0.5)]))["x"] == pytest.approx(1.0)
    assert dict(fuse([([], 5, 1.0), (["y", "z"], 60, 0.5)]))["y"] == pytest.approx(1.0)   # no keyword hits


# -- snippets --------------------------------------------------------------------------------

def _fused(keyword_ids, meaning_ids):
    return fuse([(keyword_ids, 5, 1.0), (meaning_ids, 60, 0.5)])


def test_cut_rankings_decide_the_first_k_only_when_nothing_below_the_cut_could_overtake_them():
    keyword_ids, meaning_ids = ["a", "b"], ["m1", "m2", "m3", "m4"]
    fused = _fused(keyword_ids, meaning_ids)
    # two keyword hits read of more: a third, unread, would outrank m1 for third place
    assert not decided(keyword_ids, meaning_ids, fused, 3, keyword_depth=2, meaning_depth=4)
    # the keyword ranking ran out before its depth: nothing is missing from it, and no id the
    # meaning ranking did not reach could outscore m1
    assert decided(keyword_ids, meaning_ids, fused, 3, keyword_depth=3, meaning_depth=4)
    # the first two are two keyword hits whatever lies below either cut
    assert decided(keyword_ids, meaning_ids, fused, 2, keyword_depth=2, meaning_depth=4)
    # read to the full depth: decided by definition
    assert decided(keyword_ids, meaning_ids, fused, 3, keyword_depth=full_depth(3), meaning_depth=full_depth(3))


def test_a_keyword_hit_whose_meaning_rank_was_not_read_may_change_places_with_the_one_above():
    keyword_ids = [f"k{i}" for i in range(1, 21)]
    meaning_ids = ["k10"] + [f"m{i}" for i in range(1, 10)]     # k10's meaning rank lifts it over k9 …
    fused = _fused(keyword_ids, meaning_ids)
    assert [i for i, _ in fused[:10]] == [f"k{i}" for i in range(1, 9)] + ["k10", "k9"]
    # … but k9 may have a meaning rank just below the cut that lifts it back
    assert not decided(keyword_ids, meaning_ids, fused, 10, keyword_depth=20, meaning_depth=10)
    assert decided(keyword_ids, meaning_ids, fused, 10, keyword_depth=20, meaning_depth=full_depth(10))


def test_a_snippet_is_centred_on_the_sentence_with_most_query_words_and_marks_them():
    text = "Intro sentence here. " * 12 + "Exit codes: 0 ok, 1 error. " + "Filler words follow. " * 12
    snippet, spans = best_snippet(text, ["exit", "codes"], size=80)
    assert f"{MARK_OPEN}Exit{MARK_CLOSE} {MARK_OPEN}codes{MARK_CLOSE}: 0 ok, 1 error." in snippet
    assert snippet.startswith("…") and snippet.endswith("…") and len(snippet) < 120
    assert [text[s:e] for s, e in spans] == ["Exit", "codes"]


def test_a_snippet_without_matches_starts_at_the_first_sentence():
    snippet, spans = best_snippet(PASSAGES["p3"], ["zebra"])
    assert snippet == PASSAGES["p3"] and spans == ()


def test_one_long_sentence_is_cut_around_its_first_match():
    text = "word " * 200 + "the heron " + "word " * 200
    snippet, spans = best_snippet(text, ["heron"], size=100)
    assert f"{MARK_OPEN}heron{MARK_CLOSE}" in snippet and len(snippet) <= 104


def test_sentences_split_at_stops_blank_lines_and_list_items():
    text = "One. Two?\n\nThree\n- four\n- five! Six"
    assert [text[s:e] for s, e in sentences(text)] == ["One.", "Two?", "Three", "- four", "- five!", "Six"]


def test_a_snippet_without_matches_can_start_at_the_sentence_nearest_by_meaning():
    text = "First sentence here. " * 10 + "The automobiles are checked weekly. " + "Last words. " * 10
    snippet, spans = best_snippet(text, ["car"], size=40, around=10)
    assert snippet == "…The automobiles are checked weekly.…" and spans == ()
