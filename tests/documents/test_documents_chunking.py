"""Cutting text: `chunk_text` into verbatim, overlapping, bounded chunks, and `cut_passages` into
passages cut where a person would (paragraphs, headings, list items, sentence ends)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sym.core.memory.chunking import Chunk, chunk_text
from sym.core.memory.documents import load_document
from sym.core.memory.passages import cut_passages
from tests.documents.test_documents import PROSE, write


def assert_well_formed(text: str, chunks: list[Chunk], max_chars: int, overlap: int) -> None:
    """The invariants every chunking must keep, whatever the text."""
    assert [c.index for c in chunks] == list(range(len(chunks)))
    covered = [False] * len(text)
    for chunk in chunks:
        assert chunk.text, "no empty chunks"
        assert text[chunk.start:chunk.end] == chunk.text, "a chunk is a verbatim slice"
        assert len(chunk.text) <= max_chars
        assert chunk.text == chunk.text.strip(), "chunks start and end on text, not whitespace"
        covered[chunk.start:chunk.end] = [True] * (chunk.end - chunk.start)
    missed = [i for i, ch in enumerate(text) if not ch.isspace() and not covered[i]]
    assert missed == [], "every non-whitespace character is in some chunk"
    for before, after in zip(chunks, chunks[1:]):
        assert before.start < after.start and before.end < after.end, "chunks move forward"
        assert before.end - after.start <= overlap, "chunks overlap by at most `overlap`"
        assert after.start == before.end or text[after.start - 1].isspace(), \
            "a chunk starts at a word, or right where a hard cut ended the one before"


# --- chunking --------------------------------------------------------------------------

def test_a_short_text_is_one_chunk_without_its_surrounding_whitespace():
    text = "\n\n  A small note.  \n\n"

    assert chunk_text(text) == [Chunk(0, "A small note.", 4, 17)]


def test_whitespace_only_text_has_no_chunks():
    assert chunk_text(" \n\t\n ") == []
    assert chunk_text("") == []


def test_paragraphs_are_packed_together_up_to_the_limit():
    paragraphs = [f"Paragraph {i} says something short." for i in range(6)]
    text = "\n\n".join(paragraphs)

    chunks = chunk_text(text, max_chars=80, overlap=0)

    # 34 characters each: two fit in 80 with their blank line, three do not.
    assert [c.text for c in chunks] == ["\n\n".join(paragraphs[i:i + 2]) for i in (0, 2, 4)]
    assert_well_formed(text, chunks, 80, 0)


def test_blank_lines_inside_a_chunk_are_kept_verbatim():
    text = "First line.\n   \n\n\tSecond paragraph."

    [chunk] = chunk_text(text)

    assert chunk.text == text


def test_a_markdown_heading_starts_a_new_paragraph_even_without_a_blank_line():
    text = ("# Cats\nCats sleep a lot and purr when they are happy\n"
            "## Dogs\nDogs bark at the postman and fetch sticks")

    chunks = chunk_text(text, max_chars=80, overlap=0)

    assert [c.text for c in chunks] == [
        "# Cats\nCats sleep a lot and purr when they are happy",
        "## Dogs\nDogs bark at the postman and fetch sticks",
    ]


def test_a_heading_is_not_left_alone_in_a_chunk_of_its_own():
    text = "# Intro\n\n" + PROSE * 10

    first = chunk_text(text, max_chars=300, overlap=0)[0]

    assert first.text.startswith("# Intro\n\nThe cat sat on the mat.")
    assert len(first.text) > 150


def test_a_hash_without_a_space_is_not_a_heading():
    text = "We tag it\n#important and move on with the rest of this sentence here."

    chunks = chunk_text(text, max_chars=60, overlap=0)

    assert not any(c.text.startswith("#important") for c in chunks)
    assert_well_formed(text, chunks, 60, 0)


def test_a_long_paragraph_is_split_at_sentence_ends():
    text = PROSE * 20

    chunks = chunk_text(text, max_chars=300, overlap=0)

    assert len(chunks) > 1
    assert all(c.text[-1] in ".!?" for c in chunks)
    assert_well_formed(text, chunks, 300, 0)


def test_without_sentence_ends_a_paragraph_is_split_between_words():
    words = [f"word{i}" for i in range(400)]
    text = " ".join(words)

    chunks = chunk_text(text, max_chars=100, overlap=0)

    for chunk in chunks:
        assert chunk.text.split() == words[words.index(chunk.text.split()[0]):][:len(chunk.text.split())]
    assert " ".join(c.text for c in chunks) == text
    assert_well_formed(text, chunks, 100, 0)


def test_a_word_longer_than_a_chunk_is_cut_hard():
    text = "short " + "x" * 250 + " tail"

    chunks = chunk_text(text, max_chars=100, overlap=10)

    assert max(len(c.text) for c in chunks) == 100
    assert_well_formed(text, chunks, 100, 10)


def test_consecutive_chunks_overlap_on_a_sentence_or_word_boundary():
    text = PROSE * 20

    chunks = chunk_text(text, max_chars=300, overlap=80)

    for before, after in zip(chunks, chunks[1:]):
        shared = before.end - after.start
        assert 0 < shared <= 80
        assert text[after.start - 1].isspace(), "the overlap starts at a word start"
        assert before.text.endswith(text[after.start:before.end])
    assert_well_formed(text, chunks, 300, 80)


def test_overlap_prefers_to_start_at_a_sentence():
    text = PROSE * 20

    chunks = chunk_text(text, max_chars=300, overlap=120)

    starts = [text[c.start - 2] for c in chunks[1:]]
    assert all(mark in ".!?" for mark in starts)


def test_overlap_prefers_to_start_at_a_heading():
    text = "one two three four five six\n## Next part\n" + "word " * 40

    chunks = chunk_text(text, max_chars=100, overlap=80)

    assert chunks[1].text.startswith("## Next part\nword")


def test_no_overlap_means_chunks_touch_only_at_whitespace():
    text = PROSE * 20

    chunks = chunk_text(text, max_chars=300, overlap=0)

    for before, after in zip(chunks, chunks[1:]):
        assert before.end < after.start
        assert text[before.end:after.start].isspace()


def test_a_huge_single_paragraph_keeps_every_invariant():
    text = ("lorem ipsum dolor sit amet " * 40_000).strip()

    chunks = chunk_text(text)

    assert len(chunks) > len(text) // 1200
    assert_well_formed(text, chunks, 1200, 150)


def test_unicode_offsets_are_characters_not_bytes():
    text = "Ünïcödé wörds ünd 東京の猫 🙂🙂 émojis. " * 60

    chunks = chunk_text(text, max_chars=120, overlap=30)

    assert_well_formed(text, chunks, 120, 30)
    assert all(text[c.start:c.end] == c.text for c in chunks)


def test_windows_line_endings_separate_paragraphs():
    text = "First paragraph here.\r\n\r\nSecond paragraph follows it."

    chunks = chunk_text(text, max_chars=30, overlap=0)

    assert [c.text for c in chunks] == ["First paragraph here.", "Second paragraph follows it."]


@pytest.mark.parametrize("max_chars, overlap", [(100, 100), (100, 150), (0, 0), (10, -1), (True, 0), (100.0, 10)])
def test_bad_sizes_are_rejected(max_chars, overlap):
    with pytest.raises(ValueError):
        chunk_text("some text", max_chars=max_chars, overlap=overlap)


words = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters=" \n"),
                min_size=1, max_size=15)
separators = st.sampled_from([" ", " ", " ", "  ", "\n", ". ", "! ", "? ", "\n\n", "\n# ", "\r\n\r\n", "\t"])
texts = st.lists(st.tuples(words, separators), max_size=200).map(
    lambda pairs: "".join(word + sep for word, sep in pairs))


@settings(max_examples=300, deadline=None)
@given(text=texts, max_chars=st.integers(1, 300), data=st.data())
def test_any_text_chunks_into_exact_bounded_covering_slices(text, max_chars, data):
    overlap = data.draw(st.integers(0, max_chars - 1))

    chunks = chunk_text(text, max_chars=max_chars, overlap=overlap)

    assert_well_formed(text, chunks, max_chars, overlap)
    assert (chunks == []) == (text.strip() == "")


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=400), max_chars=st.integers(1, 80), data=st.data())
def test_arbitrary_unicode_chunks_into_exact_bounded_covering_slices(text, max_chars, data):
    overlap = data.draw(st.integers(0, max_chars - 1))

    assert_well_formed(text, chunk_text(text, max_chars=max_chars, overlap=overlap), max_chars, overlap)


# --- passages: cut where a person would -------------------------------------------------

NOTES = """Field notes

The field team met on Monday to plan the survey of the northern valley. Everyone agreed to start early.

Automobiles used by the field team must be checked every week: tyres, brakes and fuel.

The weather was cold and wet, and the river was high after the storms of last month.

Lunch was sandwiches and soup, served at the old mill by the bridge. Nobody complained.

Next meeting: Thursday at nine, in the library of the research station.
"""


def test_each_paragraph_is_a_passage_and_a_tiny_title_joins_the_paragraph_after_it():
    found = cut_passages(NOTES)
    assert [p.text.split()[0] for p in found] == ["Field", "Automobiles", "The", "Lunch", "Next"]
    assert found[0].text.startswith("Field notes\n\nThe field team")
    assert all(NOTES[p.start:p.end] == p.text for p in found)


def test_tiny_paragraphs_are_merged_with_their_neighbour():
    assert [p.text for p in cut_passages("Anne is kind.\n\nBob is tall.\n")] == ["Anne is kind.\n\nBob is tall."]
    long = "A sentence that is long enough to stand as a passage on its own, at more than a hundred characters in all."
    found = cut_passages(f"{long}\n\nTiny tail.\n")
    assert [p.text for p in found] == [f"{long}\n\nTiny tail."]


def test_markdown_headings_start_passages_and_name_their_heading_path():
    text = ("# Guide\n\n## Install\n\nRun the installer and follow the steps it shows on the screen, then restart.\n"
            "## Exit codes\nExit codes: `0` ok, `1` command error.\n\nSetup\n-----\n\nEdit the file.\n")
    found = cut_passages(text)
    assert [(p.heading, p.text.splitlines()[0]) for p in found] == [
        ("Guide › Install", "# Guide"), ("Guide › Exit codes", "## Exit codes"), ("Setup", "Setup")]
    assert found[1].text.endswith("`1` command error.")


def test_list_items_are_boundaries_and_short_ones_gather_up_to_the_small_size():
    items = "\n".join(f"- item number {i} of the list, a line" for i in range(12))
    found = cut_passages("Intro to the list:\n\n" + items + "\n", min_chars=100)
    assert len(found) > 2
    assert all(p.text.startswith(("- item", "Intro")) for p in found)
    assert all(p.text.rstrip().endswith("a line") for p in found)


def test_a_fenced_code_block_stays_whole_and_its_comments_are_not_headings():
    code = "```\n# not a heading\n\nx = 1\n```"
    found = cut_passages(f"# Code\n\n{code}\n")
    assert len(found) == 1 and found[0].heading == "Code" and code in found[0].text


def test_a_long_paragraph_is_split_at_sentence_ends_within_the_bound():
    text = PROSE * 40
    found = cut_passages(text, max_chars=500)
    assert len(found) > 5 and all(len(p.text) <= 500 for p in found)
    assert all(p.text.endswith((".", "!", "?")) for p in found)


def test_byte_offsets_count_utf8_bytes_and_a_byte_order_mark(tmp_path):
    text = "Ünïcödé title\n\nCafé crème — déjà vu, a paragraph long enough to be its own passage, "\
           "more than a hundred characters.\n\nSecond paragraph, also long enough to stand alone as a passage of its own."
    path = write(tmp_path, "u.txt", "\ufeff".encode() + text.encode())
    doc = load_document(path, min_chars=50)
    raw = path.read_bytes()
    for p in doc.passages:
        assert raw[p.byte_start:p.byte_end].decode() == p.text
    assert doc.passages[0].byte_start == 3


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("ab .#-*\n`=1")), max_size=400))
def test_any_text_cuts_into_exact_slices_in_order(text):
    found = cut_passages(text, max_chars=60, min_chars=10)
    assert [p.index for p in found] == list(range(len(found)))
    for before, after in zip(found, found[1:]):
        assert before.end <= after.start
    for p in found:
        assert p.text and text[p.start:p.end] == p.text == p.text.strip()
        assert p.byte_end - p.byte_start == len(p.text.encode())
