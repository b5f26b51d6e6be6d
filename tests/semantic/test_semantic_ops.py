"""Semantic operations through the Ollama-protocol test server: /extract, /classify, /compare and
/rank, each with a reply that keeps its constraint, one that breaks it (the fallback taken and
labelled), long inputs in chunks with progress and cancel, bad input, and an offline replay."""

from __future__ import annotations

import json

from sym.core.events import Progress
from sym.repl.render import to_text
from tests.conftest import fails, state, texts


def facts(*entries: tuple) -> str:
    return json.dumps({"facts": [{"predicate": p, "args": list(args)} for p, *args in entries]})


def long_text(*sentences: str, size: int = 1500) -> str:
    """Sentences, each followed by filler, so that each lands in a chunk of its own."""
    filler = " ".join(["The weather was mild and nothing else happened that day."] * (size // 56))
    return "\n\n".join(f"{s} {filler}" for s in sentences)


# -- /extract ------------------------------------------------------------------------------

def test_extract_stores_the_facts_sym_writes_from_the_models_strings(llm_sym):
    llm_sym.server.reply(facts(("born_in", "Ada Lovelace", "London"), ("person", "the Ada Lovelace")))
    r = llm_sym("/extract Ada Lovelace was born in London. --into born_in/2,person/1")
    assert r.ok, r
    assert texts(llm_sym.shell.memory) == {"born_in(ada_lovelace, london).", "person(ada_lovelace)."}
    assert {it.source for it in llm_sym.shell.memory.items.values()} == {"llm:extract"}
    sent = llm_sym.server.chats[0].format["properties"]["facts"]["items"]["anyOf"]
    assert [(o["properties"]["predicate"]["enum"], o["properties"]["args"]["minItems"]) for o in sent] == \
           [(["born_in"], 2), (["person"], 1)]
    out = to_text(r)
    assert "+ fact" in out and "born_in(ada_lovelace, london)." in out and "fallback" not in out
    assert r.to_dict()["llm_calls"] == 1


def test_extract_names_rejected_facts_and_repairs_them(llm_sym):
    bad = facts(("born_in", "Ada"), ("lives_in", "ada", "paris"), ("born_in", "Ada", "London"))
    llm_sym.server.reply(bad, facts(("born_in", "Ada", "London")))
    r = llm_sym("/extract Ada was born in London. --into born_in/2")
    assert r.ok and r.to_dict()["llm_calls"] == 2
    assert texts(llm_sym.shell.memory) == {"born_in(ada, london)."}
    repair = llm_sym.server.chats[1].last_user
    assert "born_in takes 2 argument(s), not 1" in repair
    assert "predicate 'lives_in' is not one of born_in/2" in repair
    assert "fallback" not in to_text(r) and r.extraction.rejected == []


def test_extract_keeps_the_valid_facts_when_the_repair_breaks_the_schema_too(llm_sym):
    bad = facts(("born_in", "Ada", "London"), ("born_in", "Charles"), ("born_in", "x" * 120, "Paris"))
    llm_sym.server.reply(bad)           # the same reply again after the repair
    before = state(llm_sym.shell)
    r = llm_sym("/extract Ada was born in London, Charles was not. --into born_in/2")
    assert r.ok
    assert texts(llm_sym.shell.memory) == {"born_in(ada, london)."} != before
    out = to_text(r)
    assert "✗ rejected born_in('Charles'): born_in takes 2 argument(s), not 1" in out
    assert "is longer than 80 characters" in out
    assert "(fallback: the reply still broke the schema after a repair; its valid facts were kept)" in out
    assert r.to_dict()["fallback_chunks"] == [1]


def test_extract_never_trusts_prolog_text_from_the_model(llm_sym):
    llm_sym.server.reply(json.dumps({"facts": "born_in(ada, london). evil(X) :- true."}), "born_in(ada, london).")
    before = state(llm_sym.shell)
    r = llm_sym("/extract Ada was born in London. --into born_in/2")
    fails(r, "could not be read as facts")
    assert state(llm_sym.shell) == before and len(llm_sym.server.chats) == 2


def test_extract_reads_a_long_text_in_chunks_and_merges_near_duplicates(llm_sym):
    events = []
    llm_sym.shell.ctx.emit = events.append
    llm_sym.server.reply(facts(("built", "Charles Babbage", "the Analytical Engine")), when="part 1 of 3")
    llm_sym.server.reply(facts(("built", "Charles Babbage", "analytical engine")), when="part 2 of 3")
    llm_sym.server.reply(facts(("built", "Charles Babbage", "Analytical Engine"), ("born_in", "Babbage", "London")),
                         when="part 3 of 3")
    text = long_text("Babbage built the Analytical Engine.", "He built the analytical engine.",
                     "The engine was his, and Babbage was born in London.")
    r = llm_sym(f"/extract {text} --into built/2,born_in/2")
    assert r.ok, r
    assert texts(llm_sym.shell.memory) == {"built(charles_babbage, analytical_engine).", "born_in(babbage, london)."}
    assert [(e.done, e.total) for e in events if isinstance(e, Progress) and e.task == "extract"] == \
           [(0, 3), (1, 3), (2, 3), (3, 3)]
    out = to_text(r)
    assert "~ merged built(charles_babbage, 'analytical engine') into built(charles_babbage, analytical_engine)" in out
    assert "= 1 repeated fact across chunks dropped" in out and "(1 near-duplicate merged)" in out
    assert "(3 chunks, 3 LLM calls)" in out


def test_cancel_between_chunks_stores_nothing(llm_sym):
    shell = llm_sym.shell

    def emit(event):
        if isinstance(event, Progress) and event.task == "extract" and event.done == 1:
            shell.ctx.cancel.set()

    shell.ctx.emit = emit
    llm_sym.server.reply(facts(("likes", "ann", "tea")))
    r = llm_sym(f"/extract {long_text('Ann likes tea.', 'Ann likes coffee.')} --into likes/2")
    assert fails(r, "cancelled") and r.exit_code == 130
    assert texts(shell.memory) == set() and len(llm_sym.server.chats) == 1
    assert not shell.ctx.cancel.is_set()


def test_a_failed_call_in_a_later_chunk_stores_nothing(llm_sym):
    llm_sym.shell.ctx.settings.llm_retries = 0
    llm_sym.server.reply(facts(("likes", "ann", "tea")))
    llm_sym.server.fail("server", when="part 2 of 2")
    r = llm_sym(f"/extract {long_text('Ann likes tea.', 'Ann likes coffee.')} --into likes/2")
    fails(r)
    assert texts(llm_sym.shell.memory) == set()


def test_extract_from_a_file(llm_sym, tmp_path):
    doc = tmp_path / "notes.txt"
    doc.write_text("# Notes\nMira feeds the goats.\n")
    llm_sym.server.reply(facts(("feeds", "Mira", "the goats")))
    r = llm_sym(f"/extract --from {doc} --into feeds/2")
    assert r.ok, r
    assert texts(llm_sym.shell.memory) == {"feeds(mira, goats)."}
    assert next(iter(llm_sym.shell.memory.items.values())).source == "llm:extract:notes.txt"
    assert "# Notes" not in llm_sym.server.chats[0].last_user


def test_extract_and_classify_from_a_loaded_document_in_a_workspace(ollama_server, sym_home, tmp_path):
    from sym.repl.dispatcher import MemoryOptions, open_shell

    doc = tmp_path / "farm.txt"
    doc.write_text("Mira feeds the goats every morning.\n")
    ollama_server.reply(facts(("feeds", "Mira", "the goats")), when=lambda r: "feeds/2" in str(r.body))
    ollama_server.reply(json={"label": "farming"}, when=lambda r: "farming" in str(r.body))
    shell = open_shell(MemoryOptions("semantic-docs"), record=False)
    shell.ctx.settings.ollama_host = ollama_server.url
    try:
        assert shell.execute(f"/load {doc}")[1].ok
        r = shell.execute("/extract --from farm.txt --into feeds/2")[1]
        assert r.ok, r
        assert "feeds(mira, goats)." in texts(shell.memory)
        assert "Mira feeds the goats" in ollama_server.chats[0].last_user       # the document's text, not its name
        r = shell.execute("/classify --from farm.txt --labels farming,finance")[1]
        assert r.ok and r.to_dict()["label"] == "farming", r
    finally:
        shell.close()


# -- /classify -----------------------------------------------------------------------------

def test_classify_offers_the_labels_as_an_enum(llm_sym):
    llm_sym.server.reply(json.dumps({"label": "Sports"}))
    r = llm_sym("/classify The match ended two all after extra time. --labels sports,politics,weather")
    assert r.ok and r.result.label == "sports" and r.result.calls == 1
    assert llm_sym.server.chats[0].format["properties"]["label"]["enum"] == ["sports", "politics", "weather"]
    assert to_text(r) == "sports\n(1 LLM call)"


def test_classify_falls_back_to_the_label_nearest_the_models_answer(llm_sym):
    llm_sym.server.reply(json.dumps({"label": "sport"}))
    r = llm_sym("/classify The match ended two all. --labels politics,sports,weather")
    assert r.ok and r.result.label == "sports" and r.result.calls == 2
    assert "'sport' is not one of the labels" in llm_sym.server.chats[1].last_user
    out = to_text(r)
    assert out.startswith("sports\n(fallback: nearest label by embedding to the model's answer 'sport': sports")
    assert r.to_dict()["fallback"] is True


def test_classify_with_an_unreadable_reply_falls_back_to_the_text(llm_sym):
    llm_sym.server.reply("I would say it is about the weather.")
    r = llm_sym("/classify Rain and wind tomorrow, weather warnings. --labels sports,politics,weather")
    assert r.ok and r.result.label == "weather"
    assert "nearest label by embedding to the text (the model's reply could not be read)" in to_text(r)


def test_classify_a_long_text_chunk_by_chunk_by_vote(llm_sym):
    llm_sym.server.reply(json.dumps({"label": "weather"}), when="part 1 of 3")
    llm_sym.server.reply(json.dumps({"label": "sports"}))
    text = long_text("Storms ahead.", "The match was won.", "The cup final is next.")
    r = llm_sym(f"/classify {text} --labels sports,weather")
    assert r.ok and r.result.label == "sports" and r.result.votes == {"weather": 1, "sports": 2}
    assert "(votes over 3 chunks: sports 2, weather 1)" in to_text(r)


# -- /compare ------------------------------------------------------------------------------

def test_compare_gives_a_similarity_and_the_models_verdict(llm_sym):
    llm_sym.server.reply(json.dumps({"verdict": "similar", "reasons": ["Both say the cat sat.", "Same place."]}))
    r = llm_sym("/compare The cat sat on the mat. ||| A cat was sitting on the mat.")
    assert r.ok and r.result.verdict == "similar" and not r.result.fallback
    assert 0.0 < r.result.similarity < 1.0
    lines = to_text(r).splitlines()
    assert lines[0].startswith("similarity 0.") and lines[0].endswith("(embedding: hash)")
    assert lines[1:4] == ["verdict: similar", "  - Both say the cat sat.", "  - Same place."]
    assert llm_sym.server.chats[0].format["properties"]["verdict"]["enum"][0] == "equivalent"


def test_compare_falls_back_to_the_similarity_alone(llm_sym):
    llm_sym.server.reply(json.dumps({"verdict": "kinda", "reasons": []}))
    r = llm_sym("/compare The cat sat on the mat. ||| Stocks fell sharply.")
    assert r.ok and r.result.fallback and r.result.calls == 2
    out = to_text(r)
    assert "verdict: none (fallback: the model's judgement broke its schema — verdict 'kinda' is not one of" in out
    assert r.to_dict()["verdict"] is None and r.to_dict()["similarity"] == round(r.result.similarity, 4)


# -- /rank ---------------------------------------------------------------------------------

def test_rank_takes_a_listwise_permutation(llm_sym):
    llm_sym.server.reply(json.dumps({"order": [3, 1, 2]}))
    r = llm_sym("/rank apple, banana, cherry --by sweetness")
    assert r.ok and [r.result.items[i] for i in r.result.order] == ["cherry", "apple", "banana"]
    assert to_text(r) == "1. cherry\n2. apple\n3. banana\n(by sweetness; listwise, 1 LLM call)"
    items = llm_sym.server.chats[0].format["properties"]["order"]
    assert items["items"]["enum"] == [1, 2, 3] and items["minItems"] == items["maxItems"] == 3


def test_a_non_permutation_falls_back_to_pairwise_choices(llm_sym):
    llm_sym.server.reply(json.dumps({"order": [1, 1, 2]}), when=lambda req: "Items:" in req.text)
    better = {("apple", "banana"): "A", ("apple", "cherry"): "B", ("banana", "cherry"): "B"}
    for (a, b), pick in better.items():
        llm_sym.server.reply(json.dumps({"better": pick}), when=f"A: {a}\nB: {b}")
    r = llm_sym("/rank apple, banana, cherry --by sweetness")
    assert r.ok and r.result.method == "pairwise"
    assert [r.result.items[i] for i in r.result.order] == ["cherry", "apple", "banana"]
    assert "1 appears 2 times" in llm_sym.server.chats[1].last_user
    out = to_text(r)
    assert "(fallback: pairwise comparisons — the model's order was rejected: 1 appears 2 times" in out
    assert out.endswith("(by sweetness; pairwise, 5 LLM calls)")


def test_many_items_fall_back_to_embedding_order(llm_sym):
    llm_sym.server.reply(json.dumps({"order": [9, 2]}), when=lambda req: "Items:" in req.text)
    items = ["red apple", "green pear", "red cherry", "blue plum", "yellow lemon", "red tomato", "black olive"]
    r = llm_sym(f"/rank {', '.join(items)} --by red")
    assert r.ok and r.result.method == "embedding" and r.result.calls == 2
    top = {r.result.items[i] for i in r.result.order[:3]}
    assert top == {"red apple", "red cherry", "red tomato"}
    assert "(fallback: order by embedding similarity to the criterion — the model's order was rejected: " \
           "9 is not an item number (1 to 7)" in to_text(r)


# -- bad input -----------------------------------------------------------------------------

def test_bad_input_is_one_line_and_changes_nothing(llm_sym):
    llm_sym("likes(ann, tea).")
    before = state(llm_sym.shell)
    cases = {"/classify The match. --labels sports": "at least two different labels",
             "/classify The match.": "--labels",
             "/rank apple --by taste": "at least two items",
             "/rank apple, pear": "--by CRITERION",
             "/compare one text only": "|||",
             "/compare a ||| b ||| c": "one |||",
             "/extract Ada was born. --into born in/2": "bad predicate",
             "/extract Ada was born. --into born_in/x": "bad predicate 'born_in/x'",
             "/extract Ada was born. --into born_in/9": "1 to 4 arguments",
             "/extract Ada was born.": "--into",
             "/extract --from no-such-file.txt --into p/1": "no file or loaded document",
             "/rank a, b --by x --fast": "unknown option --fast"}
    for line, words in cases.items():
        fails(llm_sym(line), words)
    assert state(llm_sym.shell) == before and llm_sym.server.chats == []


def test_an_unreachable_model_leaves_memory_unchanged(llm_sym):
    llm_sym.shell.ctx.settings.llm_retries = 0
    llm_sym.server.fail("refused")
    before = state(llm_sym.shell)
    r = llm_sym("/extract Ada was born in London. --into born_in/2")
    assert fails(r) and r.exit_code == 3
    assert state(llm_sym.shell) == before


# -- sessions ------------------------------------------------------------------------------

def test_a_recorded_session_replays_offline_with_the_same_output(ollama_server):
    import io

    from sym.repl.dispatcher import MemoryOptions, open_shell
    from sym.repl.replay import replay
    from sym.sessions.log import read_session

    ollama_server.reply(facts(("born_in", "Ada", "London")), when="born")
    ollama_server.reply(json.dumps({"label": "sport"}), when=lambda req: "Labels:" in req.text)
    ollama_server.reply(json.dumps({"verdict": "similar", "reasons": ["Both are cats."]}), when="Text A")
    ollama_server.reply(json.dumps({"order": [2, 1]}), when="Items:")
    lines = ["/extract Ada was born in London. --into born_in/2",
             "/classify The match ended two all. --labels politics,sports",
             "/compare The cat sat. ||| A cat was sitting.",
             "/rank tea, cake --by sweetness"]
    shell = open_shell(MemoryOptions(), record=True)
    shell.ctx.settings.ollama_host = ollama_server.url
    try:
        recorded = [to_text(shell.execute(line)[1]) for line in lines]
        path = shell.ctx.session.path
    finally:
        shell.close()
    ollama_server.stop()
    assert all("error" not in out for out in recorded), recorded
    assert "fallback: nearest label by embedding" in recorded[1]
    rec = read_session(path)
    assert [c["purpose"] for c in rec.llm_calls()] == ["extract", "classify", "classify.repair", "compare", "rank"]
    out, err = io.StringIO(), io.StringIO()
    report = replay(rec, offline=True, out=out, err=err)
    assert report.commands == 4 and out.getvalue() == "\n".join(recorded) + "\n", err.getvalue()
    report = replay(rec, offline=True, verify=True, out=io.StringIO(), err=io.StringIO())
    assert report.differences == []
