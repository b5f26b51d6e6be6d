"""Documents as a user works with them: /load (files, folders, globs; a URL refused), passages a
person would cut, /search that finds the exact term and the paraphrase with a snippet at the
match, /docs (list, show, rm), reloading a changed file, and a session that replays."""

from __future__ import annotations

import json
import sqlite3
import subprocess

import pytest

from sym.core.events import DocumentsChanged
from sym.repl.dispatcher import MemoryOptions, open_shell
from sym.repl.render import to_text
from tests.conftest import fails
from tests.documents.test_documents_chunking import NOTES

GUIDE = "# Guide\n\n" + "".join(
    f"## Part {i}\n\nThis part explains how the shell reads its input and what it does with code "
    f"number {i}; a command may exit early when the code is wrong.\n\n" for i in range(12)) + (
    "## Batch mode\n\n- `--bail`: stop at the first failing command.\n"
    "- Exit codes: `0` ok, `1` a command failed, `2` usage error, `3` a server does not answer.\n")


@pytest.fixture
def docs_shell(tmp_path, monkeypatch):
    """A shell on a workspace in this test's SYM_HOME, searching as batch mode does, with its events."""
    monkeypatch.chdir(tmp_path)
    events: list = []
    shell = open_shell(MemoryOptions("docs"), emit=events.append, record=False)
    shell.ctx.patient = True

    def type_(text: str):
        return shell.execute(text)[1]
    type_.shell, type_.events = shell, events
    yield type_
    shell.close()


def write(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# -- passages and search: the reproductions of the issue ---------------------------------------

def test_a_five_paragraph_note_is_five_passages_and_car_finds_the_automobiles(docs_shell, tmp_path):
    write(tmp_path, "notes.txt", NOTES)
    loaded = docs_shell("/load notes.txt")
    assert loaded.data["chunks"] == 5, to_text(loaded)
    found = docs_shell("/search car --k 3")
    best = found.hits[0]
    assert best.text.startswith("Automobiles used by the field team") and best.meaning_rank == 1
    assert "notes.txt ¶2" in to_text(found)


def test_an_exact_term_ranks_first_with_a_snippet_at_the_match(docs_shell, tmp_path):
    write(tmp_path, "GUIDE.md", GUIDE)
    docs_shell("/load GUIDE.md")
    found = docs_shell("/search exit codes")
    best = found.hits[0]
    assert "Exit codes: `0` ok" in best.text and best.keyword_rank == 1
    assert best.meta["heading"] == "Guide › Batch mode"
    assert "«Exit» «codes»: `0` ok" in best.snippet
    shown = json.loads(json.dumps(found.to_dict()))["hits"][0]
    assert shown["cite"] == "GUIDE.md ¶13" and shown["keyword_rank"] == 1 and "meaning_rank" in shown
    assert [best.text[s:e] for s, e in shown["spans"]] == ["Exit", "codes"]
    assert "keyword #1" in to_text(found).splitlines()[0]


def test_reading_the_keywords_only_as_deep_as_k_needs_finds_what_a_full_read_finds(docs_shell, tmp_path):
    from sym.core.memory.retrieval import full_depth, hybrid_search, keyword_ranking, read_depth

    write(tmp_path, "GUIDE.md", GUIDE)
    docs_shell("/load GUIDE.md")
    store = docs_shell.shell.memory.store
    for text, k in (("code number", 3), ("exit code", 2), ("shell reads input", 1), ("command may exit early", 4)):
        assert len(keyword_ranking(store, text, 50)) > read_depth(k)    # the first read is cut
        quick = hybrid_search(store, text, ("docs",), k, wait=None)
        whole = hybrid_search(store, text, ("docs",), k, wait=None, depth=full_depth(k))
        shown = [(h.id, h.score, h.keyword_rank, h.meaning_rank, h.snippet) for h in quick]
        assert len(quick) == k and shown == [(h.id, h.score, h.keyword_rank, h.meaning_rank, h.snippet) for h in whole]


def test_facts_and_passages_are_searched_together(docs_shell, tmp_path):
    write(tmp_path, "notes.txt", NOTES)
    docs_shell("/load notes.txt")
    docs_shell("meets(team, monday).")
    kinds = {h.kind for h in docs_shell("/search when does the team meet").hits}
    assert kinds == {"facts", "docs"}
    assert all(h.kind == "facts" for h in docs_shell("/search team --kind facts").hits)


# -- /load: folders, globs, URLs --------------------------------------------------------------

def test_a_folder_loads_each_document_with_progress_and_one_summary_line(docs_shell, tmp_path):
    write(tmp_path, "docs/a.md", "# A\n\nAlpha text about herons and their nests by the river.\n")
    write(tmp_path, "docs/sub/b.txt", "Beta text about kingfishers.\n")
    write(tmp_path, "docs/empty.md", "   \n")
    write(tmp_path, "docs/.hidden/c.md", "hidden\n")
    (tmp_path / "docs" / "d.pdf").write_bytes(b"not a pdf")
    loaded = docs_shell("/load docs")
    text = to_text(loaded)
    assert "\n" not in text and text.startswith("loaded 2 documents from docs: 2 chunks")
    assert "skipped 2:" in text and "is empty" in text
    assert [d["name"] for d in loaded.data["documents"]] == ["a.md", "sub/b.txt"]     # named from the folder
    progress = [e for e in docs_shell.events if type(e).__name__ == "Progress" and e.task.startswith("loading")]
    assert {e.task for e in progress} >= {"loading 1/4 a.md", "loading 4/4 sub/b.txt"}
    assert [row[0] for row in docs_shell("/docs").rows] == ["a.md", "sub/b.txt"]
    assert "kingfishers" in to_text(docs_shell("/docs show sub/b.txt 1"))


def test_a_glob_loads_what_it_matches_and_a_second_time_says_nothing_changed(docs_shell, tmp_path):
    write(tmp_path, "x1.md", "One note about owls.\n")
    write(tmp_path, "x2.md", "Another note about larks.\n")
    write(tmp_path, "y.md", "Not this one.\n")
    assert to_text(docs_shell("/load 'x*.md'")).startswith("loaded 2 documents from x*.md")
    again = docs_shell("/load x*.md")
    assert again.data["reloaded"] == 2 and again.data["unchanged"] == 2


def test_a_pattern_that_matches_nothing_or_all_bad_files_is_one_line_and_stores_nothing(docs_shell, tmp_path):
    fails(docs_shell("/load nothing*.md"), "no files match")
    write(tmp_path, "bad/e.md", "  \n")
    fails(docs_shell("/load bad"), "nothing loaded from bad", "is empty")
    assert docs_shell.shell.memory.store.count("docs") == 0


@pytest.mark.parametrize("url", ["http://x", "https://example.com/notes.md", "file:///etc/hostname"])
def test_a_url_is_refused_in_one_line_and_nothing_is_read_or_stored(docs_shell, tmp_path, url):
    (tmp_path / "http:").mkdir()
    write(tmp_path, "http:/x", "a file that a URL must never be read as\n")
    fails(docs_shell(f"/load {url}"), "is a URL", "nothing is downloaded")
    assert docs_shell.shell.memory.store.count("docs") == 0


# -- /docs: list, show, rm --------------------------------------------------------------------

def test_docs_lists_each_document_with_its_chunks_and_size(docs_shell, tmp_path):
    write(tmp_path, "notes.txt", NOTES)
    docs_shell("/load notes.txt")
    listing = docs_shell("/docs")
    assert listing.rows[0][:2] == ("notes.txt", f"5 chunks, {len(NOTES.rstrip()) + 1:,} characters")
    assert listing.to_dict()["documents"][0]["chunks"] == 5
    assert docs_shell("/memory docs").rows == listing.rows


def test_docs_show_previews_the_passages_or_one_whole(docs_shell, tmp_path):
    write(tmp_path, "notes.txt", NOTES)
    docs_shell("/load notes.txt")
    preview = to_text(docs_shell("/docs show notes.txt"))
    assert preview.splitlines()[0].startswith("notes.txt: 5 chunks") and "¶3" in preview
    third = docs_shell("/docs show notes.txt 3")
    assert to_text(third).splitlines()[1:] == [NOTES.split("\n\n")[3]]
    shown = third.to_dict()["passages"][0]
    assert NOTES[shown["start"]:shown["end"]] == shown["text"] and shown["cite"] == "notes.txt ¶3"
    fails(docs_shell("/docs show notes.txt 9"), "passages 1 to 5")
    assert "did you mean notes.txt" in docs_shell("/docs show notes.tx").hint
    fails(docs_shell("/docs show"), "needs a document name")
    fails(docs_shell("/docs frobnicate"), "unknown /docs form")


def test_two_documents_of_one_name_are_told_apart_by_path(docs_shell, tmp_path):
    write(tmp_path, "a/notes.md", "First notes about herons.\n")
    write(tmp_path, "b/notes.md", "Second notes about larks.\n")
    docs_shell("/load a/notes.md")
    docs_shell("/load b/notes.md")
    fails(docs_shell("/docs show notes.md"), "2 loaded documents are named 'notes.md'")
    assert "larks" in to_text(docs_shell("/docs show b/notes.md 1"))


def test_docs_rm_asks_first_then_removes_the_document_and_its_passages(docs_shell, tmp_path):
    write(tmp_path, "notes.txt", NOTES)
    write(tmp_path, "other.md", "Other text about owls.\n")
    docs_shell("/load notes.txt")
    docs_shell("/load other.md")
    asked = docs_shell("/docs rm notes.txt")
    assert "to go ahead: /docs rm notes.txt --yes" in asked.text and asked.data["removed"] is False
    assert docs_shell.shell.memory.store.count("docs") == 6
    before = len([e for e in docs_shell.events if isinstance(e, DocumentsChanged)])
    removed = docs_shell("/docs rm notes.txt --yes")
    assert removed.text == "removed notes.txt (5 chunks)" and len(removed.data["ids"]) == 5
    changed = [e for e in docs_shell.events if isinstance(e, DocumentsChanged)][before:]
    assert [[d.name for d in e.documents] for e in changed] == [["other.md"]]
    assert docs_shell.shell.memory.store.count("docs") == 1
    assert all(h.meta["name"] == "other.md" for h in docs_shell("/search field team automobiles").hits)
    fails(docs_shell("/docs rm notes.txt --yes"), "no loaded document 'notes.txt'")
    fails(docs_shell("/docs --yes"), "--yes goes with /docs rm only")


def test_docs_rm_is_all_or_nothing(docs_shell, tmp_path, monkeypatch):
    write(tmp_path, "notes.txt", NOTES)
    docs_shell("/load notes.txt")
    store = docs_shell.shell.memory.store
    real = store.snapshot.delete_records

    def half_then_fail(kind, ids):
        real(kind, ids[:2])
        raise OSError("disk full")

    monkeypatch.setattr(store.snapshot, "delete_records", half_then_fail)
    assert not docs_shell("/docs rm notes.txt --yes").ok
    assert store.count("docs") == 5


# -- reloading ---------------------------------------------------------------------------------

def test_reloading_a_changed_file_stores_only_what_changed(docs_shell, tmp_path):
    path = write(tmp_path, "notes.txt", NOTES)
    docs_shell("/load notes.txt")
    store = docs_shell.shell.memory.store
    store.wait(None)
    store.backlog.stop()        # what the reload leaves to embed stays pending, to be read here
    first = {r.text: r.id for r in store.all("docs")}
    path.write_text(NOTES.replace("Lunch was sandwiches and soup", "Lunch was bread and cheese")
                    .replace("Field notes\n", "Field notes\n\nA new first paragraph, added later, long enough to stand.\n"))
    reloaded = docs_shell("/load notes.txt")
    assert reloaded.text.startswith("reloaded (replacing 5 chunks) notes.txt: 6 chunks")
    assert (reloaded.data["kept"], reloaded.data["added"], reloaded.data["removed"]) == (3, 3, 2)
    pending = {row[0] for row in store.snapshot._conn().execute("SELECT id FROM pending WHERE op = 'upsert'")}
    after = {r.text: r for r in store.all("docs")}
    assert pending == {r.id for t, r in after.items() if t not in first}      # only new text is embedded again
    moved = after["The weather was cold and wet, and the river was high after the storms of last month."]
    assert moved.id in first.values() and moved.meta["index"] == 3
    store.backlog.restart()
    assert docs_shell("/search bread and cheese").hits[0].meta["index"] == 4


def test_an_existing_workspace_without_the_keyword_index_gets_it_on_open(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "GUIDE.md", GUIDE)
    shell = open_shell(MemoryOptions("old"), record=False)
    try:
        assert shell.execute("/load GUIDE.md")[1].ok
        path = shell.memory.store.snapshot.path
    finally:
        shell.close()
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE docs_fts")
        db.execute("DELETE FROM meta WHERE key = 'fts'")
    shell = open_shell(MemoryOptions("old"), record=False)
    try:
        shell.ctx.patient = True
        best = shell.execute("/search exit codes")[1].hits[0]
        assert best.keyword_rank == 1 and "Exit codes" in best.text
    finally:
        shell.close()


# -- sessions -----------------------------------------------------------------------------------

def test_a_session_that_loads_and_removes_a_document_replays_equal(sym_exe, sym_home, tmp_path):
    write(tmp_path, "notes.txt", NOTES)
    script = write(tmp_path, "s.sym", "/load notes.txt\n/docs\n/docs show notes.txt 2\n/docs rm notes.txt --yes\n/docs\n")
    proc = subprocess.run([*sym_exe, "--batch", str(script)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    (log,) = sorted((sym_home / "sessions").glob("*.jsonl"))
    outputs = [json.loads(line) for line in log.read_text().splitlines() if '"t": "output"' in line]
    assert outputs[3]["result"]["removed"] is True and outputs[4]["result"]["documents"] == []
    replayed = subprocess.run([*sym_exe, "replay", str(log), "--verify", "--trust"], capture_output=True, text=True,
                              timeout=120)
    assert replayed.returncode == 0 and "equal" in replayed.stderr, replayed.stderr


# -- /ask --docs and /why of a told fact ------------------------------------------------------

def test_ask_docs_answers_citing_the_passages_with_a_model(docs_shell, tmp_path, ollama_server):
    write(tmp_path, "notes.txt", NOTES)
    docs_shell("/load notes.txt")
    docs_shell.shell.ctx.settings.ollama_host = ollama_server.url
    ollama_server.reply("The next meeting is on Thursday at nine [1], in the research station library [1].")
    asked = docs_shell("/ask --docs when is the next meeting?")
    assert asked.ok and asked.verified is False and asked.status == "unverified"
    out = to_text(asked)
    assert out.splitlines()[0] == ("The next meeting is on Thursday at nine [notes.txt ¶5], in the research station "
                                   "library [notes.txt ¶5].")
    assert "(unverified" in out and "  [notes.txt ¶5] «Next» «meeting»: Thursday at nine" in out
    prompt = ollama_server.chats[0].last_user
    assert prompt.startswith("Passages:") and "[1] (notes.txt ¶5)" in prompt
    assert asked.to_dict()["cited"] == ["notes.txt ¶5"] and asked.to_dict()["from"] == "documents"


def test_ask_docs_without_a_model_shows_the_best_passages_with_citations(docs_shell, tmp_path):
    from tests.ollama_server import unused_url

    write(tmp_path, "notes.txt", NOTES)
    docs_shell("/load notes.txt")
    docs_shell.shell.ctx.settings.ollama_host = unused_url()
    asked = docs_shell("/ask --docs when is the next meeting?")
    assert asked.ok and asked.status == "passages"
    lines = to_text(asked).splitlines()
    assert lines[0].startswith("no model answer (")
    assert lines[0].endswith("the passages that best match the question (not an answer, nothing proved):")
    assert lines[1].startswith("  [notes.txt ¶5] «Next» «meeting»")
    fails(docs_shell("/ask --docs --closed when?"), "--docs answers from the documents")


def test_why_of_a_fact_told_from_a_document_shows_its_passage(docs_shell, tmp_path):
    write(tmp_path, "people.txt", "# People\n\nAnne is kind.\n\nCarl is big. Bob is tall.\n\n"
          "The weather was cold and wet, and the river was high after the storms of last month.\n")
    docs_shell("/load people.txt")
    docs_shell.shell.ctx.settings.ollama_host = "http://127.0.0.1:9"
    assert docs_shell("/tell --partial --from people.txt").ok       # the weather needs a model
    why = docs_shell("/why tall(bob)")
    out = to_text(why)
    assert "read from documents:" in out
    assert "tall(bob).  ← [people.txt ¶1] · People" in out and "Carl is big. «Bob» is «tall»." in out
    shown = why.to_dict()["passages"]
    (entry,) = shown.values()
    assert entry["cite"] == "people.txt ¶1" and entry["document"] == "people.txt"
    typed = docs_shell("/fact short(dan).")
    assert typed.ok and "read from documents" not in to_text(docs_shell("/why short(dan)"))


def test_why_of_a_derived_fact_shows_the_passages_of_the_facts_under_it(docs_shell, tmp_path):
    write(tmp_path, "zoo.md", "# Animals\n\nRex is a dog. Rex is brown.\n\n## Rules\n\n"
          "Tweety is a bird, and it sings every single morning by the window.\n")
    docs_shell("/load zoo.md")
    docs_shell.shell.ctx.settings.ollama_host = "http://127.0.0.1:9"
    assert docs_shell("/tell --partial --from zoo.md").ok
    assert docs_shell("/rule animal(X) :- dog(X).").ok
    out = to_text(docs_shell("/why animal(rex)"))
    assert "dog(rex).  ← [zoo.md ¶1] · Animals" in out
    assert "animal(X) :- dog(X)" in out       # the rule, typed, has no passage


def test_why_of_a_fact_extracted_from_a_loaded_document_shows_its_passage(docs_shell, tmp_path, ollama_server):
    write(tmp_path, "farm.txt", "The weather was cold and wet, and the river was high after the storms.\n\n"
          "Mira feeds the goats every morning before the market opens.\n")
    docs_shell("/load farm.txt")
    (tmp_path / "farm.txt").unlink()           # --from then names the loaded document
    docs_shell.shell.ctx.settings.ollama_host = ollama_server.url
    ollama_server.reply(json={"facts": [{"predicate": "feeds", "args": ["Mira", "the goats"]}]})
    assert docs_shell("/extract --from farm.txt --into feeds/2").ok
    out = to_text(docs_shell("/why feeds(mira, goats)"))
    assert "feeds(mira, goats).  ← [farm.txt ¶2]" in out and "«Mira» «feeds» the «goats»" in out


# -- a question memory cannot settle goes to the documents ------------------------------------------

STAFF = ("# Staff\n\nAnne is tall. Carl is big.\n\n## Weather\n\n"
         "The weather was cold and wet, and the river was high after the storms of last month.\n")


def test_an_unknown_question_is_answered_from_the_passages_and_verified_by_their_facts(docs_shell, tmp_path,
                                                                                       ollama_server):
    write(tmp_path, "staff.md", STAFF)
    docs_shell("/load staff.md")
    docs_shell.shell.ctx.settings.ollama_host = ollama_server.url
    ollama_server.reply("Yes, Anne is tall [1].")
    asked = docs_shell("/ask Is Anne tall?")
    assert asked.ok and asked.verified is True and asked.status == "true", to_text(asked)
    lines = to_text(asked).splitlines()
    assert lines[0].startswith("memory cannot settle it (unknown") and lines[0].endswith("from the loaded documents:")
    assert lines[1] == "Yes, Anne is tall [staff.md ¶1]."
    assert lines[2] == "(verified: with the facts read from [staff.md ¶1], memory derives: true)"
    assert lines[3:6] == ["because:", "  1. tall(anne).  given (Anne is tall.)", "facts read: tall(anne)."]
    assert len(ollama_server.chats) == 1          # the answer only: the grammar read the rest, no guess asked
    shown = asked.to_dict()
    assert shown["check"]["verified"] is True and shown["memory"]["answer"] == "unknown"
    assert docs_shell.shell.memory.items == {}    # the check stored nothing


def test_an_answer_whose_passages_do_not_settle_it_stays_unverified(docs_shell, tmp_path, ollama_server):
    write(tmp_path, "staff.md", STAFF)
    docs_shell("/load staff.md")
    docs_shell.shell.ctx.settings.ollama_host = ollama_server.url
    ollama_server.reply("The notes do not say whether Bob is tall [1].")
    asked = docs_shell("/ask Is Bob tall?")
    assert asked.ok and asked.verified is False and asked.status == "unverified"
    out = to_text(asked)
    assert "(unverified: read from the documents by the model, not proved from memory; the facts read from the " \
           "passages do not settle it (unknown" in out
    assert asked.to_dict()["check"]["facts"] == ["tall(anne)."]


def test_with_no_model_an_unknown_question_shows_the_passages_labelled_as_no_answer(docs_shell, tmp_path):
    from tests.ollama_server import unused_url

    write(tmp_path, "staff.md", STAFF)
    docs_shell("/load staff.md")
    docs_shell.shell.ctx.settings.ollama_host = unused_url()
    asked = docs_shell("/ask Is Anne tall?")
    assert asked.ok and asked.verified is False and asked.status == "passages"
    lines = to_text(asked).splitlines()
    assert lines[0].startswith("memory cannot settle it (unknown")
    assert lines[1].startswith("no model answer (") and lines[1].endswith("(not an answer, nothing proved):")
    assert lines[2] == "  [staff.md ¶1] # Staff «Anne» is «tall». Carl is big."


def test_a_question_memory_settles_or_no_fallback_never_goes_to_the_documents(docs_shell, tmp_path):
    write(tmp_path, "staff.md", STAFF)
    docs_shell("/load staff.md")
    docs_shell.shell.ctx.settings.ollama_host = "http://127.0.0.1:9"
    assert docs_shell("/fact tall(anne).").ok
    settled = docs_shell("/ask Is Anne tall?")
    assert settled.status == "true" and "documents" not in to_text(settled)
    unknown = docs_shell("/ask --no-fallback Is Carl tall?")
    assert unknown.status == "unknown" and "documents" not in to_text(unknown)


# -- memory commands run with the run's settings --------------------------------------------

def test_a_steering_policy_sets_how_many_hits_search_shows_for_that_run_only(docs_shell, tmp_path):
    write(tmp_path, "notes.txt", NOTES)
    docs_shell("/load notes.txt")
    assert len(docs_shell("/search field team").hits) == 5          # search_k 5, the default
    added = docs_shell("/policy add {name: brief, target: reasoner, filter: {command: /search}, "
                       "attributes: {search_k: 2}}")
    assert added.ok, to_text(added)
    assert len(docs_shell("/search field team").hits) == 2
    assert docs_shell.shell.ctx.settings.search_k == 5               # the shell keeps its own
    assert len(docs_shell("/search field team --k 4").hits) == 4     # what is typed still wins


# -- the chat's context --------------------------------------------------------------------------

def test_the_plain_chat_is_given_the_passages_that_match_and_cites_them(docs_shell, tmp_path, ollama_server):
    write(tmp_path, "notes.txt", NOTES)
    docs_shell("/load notes.txt")
    docs_shell.shell.ctx.settings.ollama_host = ollama_server.url
    assert docs_shell("/set agent.style plain").ok
    ollama_server.reply("The next meeting is on Thursday at nine [notes.txt ¶5].")
    said = docs_shell("/chat when is the next meeting?")
    assert said.ok and said.cited == ["notes.txt ¶5"]
    assert to_text(said).endswith("(cites notes.txt ¶5)")
    system = ollama_server.chats[0].system
    assert "cite it like [notes.txt ¶3]" in system
    assert "[notes.txt ¶5] Next meeting: Thursday at nine, in the library of the research station." in system


def test_the_agents_context_holds_the_passages_that_match(docs_shell, tmp_path, ollama_server):
    write(tmp_path, "notes.txt", NOTES)
    docs_shell("/load notes.txt")
    docs_shell.shell.ctx.settings.ollama_host = ollama_server.url
    assert docs_shell("/set agent.style tools").ok
    ollama_server.reply("The notes say Thursday at nine.")
    assert docs_shell("/chat when is the next meeting?").ok
    assert "- (document) [notes.txt ¶5] Next meeting: Thursday at nine" in ollama_server.chats[0].system


def test_with_no_document_loaded_the_chat_context_has_no_passages(docs_shell, ollama_server):
    docs_shell.shell.ctx.settings.ollama_host = ollama_server.url
    assert docs_shell("/set agent.style plain").ok
    ollama_server.reply("Hello.")
    assert docs_shell("/chat hello there").ok
    assert "Passages of the user's documents" not in ollama_server.chats[0].system
