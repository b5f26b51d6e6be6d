"""Documents: reading .txt/.md/.pdf files into text, and cutting text into verbatim, overlapping chunks."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sym.core.errors import UserError
from sym.core.memory.chunking import Chunk, chunk_text
from sym.core.memory.documents import (
    Document,
    document_id,
    document_paths,
    is_url,
    load_document,
    passage_ids,
    read_document,
    refuse_url,
)
from sym.core.memory.passages import Passage, cut_passages

PROSE = ("The cat sat on the mat. It was a sunny day! Was the dog jealous? Nobody knows. "
         "Later the dog slept by the fire, and the cat watched it from the stairs. ")


def write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    path = tmp_path / name
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    return path


def pdf_with_text(*pages: str) -> bytes:
    """A minimal PDF, one page per argument showing it in Helvetica, with a correct xref table."""
    font = 3 + 2 * len(pages)
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(len(pages)))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode()]
    for i, text in enumerate(pages):
        stream = f"BT /F1 24 Tf 72 720 Td ({text}) Tj ET".encode()
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources "
                       f"<< /Font << /F1 {font} 0 R >> >> /Contents {4 + 2 * i} 0 R >>".encode())
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


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


# --- reading files ---------------------------------------------------------------------

def test_a_text_file_is_read_as_it_is(tmp_path):
    path = write(tmp_path, "notes.txt", "Ann is the mother of Ben.\r\nBen is big.\n")

    assert read_document(path) == "Ann is the mother of Ben.\r\nBen is big.\n"


def test_a_markdown_file_with_unicode_is_read(tmp_path):
    path = write(tmp_path, "notes.md", "# Über\n\nNaïve café — 東京 🙂\n")

    assert read_document(path) == "# Über\n\nNaïve café — 東京 🙂\n"


def test_a_byte_order_mark_is_dropped(tmp_path):
    path = write(tmp_path, "bom.txt", b"\xef\xbb\xbfHello sym")

    assert read_document(path) == "Hello sym"


def test_a_file_that_is_not_utf8_is_refused_in_one_line(tmp_path):
    path = write(tmp_path, "latin1.txt", "café au lait".encode("latin-1"))

    with pytest.raises(UserError) as caught:
        read_document(path)
    assert caught.value.message == f"{path} is not UTF-8 text"
    assert "\n" not in str(caught.value)


def test_a_utf16_text_file_gets_a_hint_to_convert_it(tmp_path):
    path = write(tmp_path, "wide.txt", "Hello sym".encode("utf-16"))

    with pytest.raises(UserError, match="is not UTF-8 text") as caught:
        read_document(path)
    assert caught.value.hint == "convert it to UTF-8"


def test_an_unknown_extension_is_read_when_it_is_text(tmp_path):
    path = write(tmp_path, "README", "Plain words.\n")

    assert read_document(path) == "Plain words.\n"


def test_a_binary_file_is_refused(tmp_path):
    path = write(tmp_path, "image.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

    with pytest.raises(UserError) as caught:
        read_document(path)
    assert caught.value.message == f"{path} looks binary"
    assert caught.value.hint == "load .txt, .md or .pdf files"


def test_valid_utf8_with_nul_bytes_still_counts_as_binary(tmp_path):
    path = write(tmp_path, "data.bin", b"abc\x00def")

    with pytest.raises(UserError, match="looks binary"):
        read_document(path)


def test_undecodable_bytes_with_an_unknown_extension_count_as_binary(tmp_path):
    path = write(tmp_path, "blob.dat", b"\xff\xfe\xfa\x80 not text")

    with pytest.raises(UserError, match="looks binary"):
        read_document(path)


@pytest.mark.parametrize("content", [b"", b"   \n\t\n", "\ufeff".encode(), "\u00a0\u2003\n".encode()])
def test_an_empty_or_blank_file_is_refused(tmp_path, content):
    path = write(tmp_path, "empty.md", content)

    with pytest.raises(UserError) as caught:
        read_document(path)
    assert caught.value.message == f"{path} is empty"


def test_a_missing_file_is_named(tmp_path):
    path = tmp_path / "nowhere.txt"

    with pytest.raises(UserError) as caught:
        read_document(path)
    assert caught.value.message == f"no such file: {path}"


def test_a_directory_is_refused(tmp_path):
    with pytest.raises(UserError, match="is a directory"):
        read_document(tmp_path)


def test_an_unreadable_file_is_a_user_error_not_a_traceback(tmp_path, monkeypatch):
    path = write(tmp_path, "secret.txt", "classified")

    def refuse(self):
        raise PermissionError(13, "Permission denied", str(self))
    monkeypatch.setattr(Path, "read_bytes", refuse)  # chmod 000 does not stop root

    with pytest.raises(UserError) as caught:
        read_document(path)
    assert caught.value.message == f"cannot read {path}: permission denied"


def test_reading_a_pdf_without_pypdf_says_what_to_install(tmp_path, monkeypatch):
    path = write(tmp_path, "paper.pdf", pdf_with_text("Hello sym"))
    monkeypatch.setitem(sys.modules, "pypdf", None)   # as if it were not installed

    with pytest.raises(UserError) as caught:
        read_document(path)
    assert caught.value.message == "reading PDF needs pypdf"
    assert caught.value.hint == "pip install 'sym-shell[pdf]'"


def test_the_text_of_a_pdf_is_extracted(tmp_path):
    pytest.importorskip("pypdf")
    path = write(tmp_path, "paper.pdf", pdf_with_text("Hello sym"))

    assert read_document(path).strip() == "Hello sym"
    assert [p.text for p in load_document(path).passages] == ["Hello sym"]


def test_pdf_pages_become_paragraphs(tmp_path):
    pytest.importorskip("pypdf")
    path = write(tmp_path, "two.pdf", pdf_with_text("Page one text", "Page two text"))

    text = read_document(path)

    assert text == "Page one text\n\nPage two text"
    assert [c.text for c in chunk_text(text, max_chars=20, overlap=5)] == ["Page one text", "Page two text"]


def test_a_pdf_with_only_a_blank_page_has_no_text(tmp_path):
    pypdf = pytest.importorskip("pypdf")
    writer = pypdf.PdfWriter()
    writer.add_blank_page(width=200, height=200)
    buffer = io.BytesIO()
    writer.write(buffer)
    path = write(tmp_path, "blank.pdf", buffer.getvalue())

    with pytest.raises(UserError, match="has no extractable text"):
        read_document(path)


def test_an_encrypted_pdf_is_refused_clearly(tmp_path):
    pypdf = pytest.importorskip("pypdf")
    writer = pypdf.PdfWriter()
    writer.add_blank_page(width=200, height=200)
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="RC4-128")
    buffer = io.BytesIO()
    writer.write(buffer)
    path = write(tmp_path, "locked.pdf", buffer.getvalue())

    with pytest.raises(UserError) as caught:
        read_document(path)
    assert caught.value.message == f"{path} is encrypted"


@pytest.mark.parametrize("data", [b"%PDF-1.4\nthis is not a pdf\n", b"plain text named .pdf"])
def test_a_broken_pdf_is_one_user_error(tmp_path, data):
    pytest.importorskip("pypdf")
    path = write(tmp_path, "broken.pdf", data)

    with pytest.raises(UserError) as caught:
        read_document(path)
    assert caught.value.message.startswith(f"{path} is not a readable PDF")
    assert "\n" not in caught.value.message


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


# --- documents -------------------------------------------------------------------------

def test_loading_a_document_reads_it_and_cuts_it_into_passages(tmp_path):
    text = "# Title\n\n" + PROSE * 30
    path = write(tmp_path, "story.md", text)

    document = load_document(path, max_chars=400, min_chars=50)

    assert isinstance(document, Document)
    assert document.name == "story.md"
    assert document.path == str(path.resolve())
    assert document.chars == len(text)
    assert document.id == document_id(path)
    assert len(document.passages) > 1
    assert all(text[p.start:p.end] == p.text and p.heading == "Title" for p in document.passages)
    assert all(len(p.text) <= 400 for p in document.passages[1:])


def test_the_same_file_gets_the_same_id_however_it_is_named(tmp_path, monkeypatch):
    path = write(tmp_path, "a.txt", "text")
    monkeypatch.chdir(tmp_path)

    assert document_id(path) == document_id(Path("a.txt")) == document_id(tmp_path / "." / "a.txt")
    assert document_id(path) != document_id(write(tmp_path, "b.txt", "text"))
    assert document_id(path).startswith("d") and len(document_id(path)) == 11


def test_passage_ids_come_from_the_text_so_an_unchanged_passage_keeps_its_id():
    a, b = Passage(0, "Alpha.", 0, 6), Passage(1, "Beta.", 8, 13)
    ids = passage_ids("d0000000001", [a, b])
    moved = passage_ids("d0000000001", [Passage(0, "New.", 0, 4), Passage(1, "Alpha.", 6, 12), Passage(2, "Beta.", 14, 19)])
    assert moved[1:] == ids and moved[0] not in ids
    assert passage_ids("d0000000002", [a])[0] != ids[0]
    twice = passage_ids("d0000000001", [a, a, a])
    assert len(set(twice)) == 3 and twice[0] == ids[0]


def test_loading_reports_reading_errors_as_user_errors(tmp_path):
    with pytest.raises(UserError, match="no such file"):
        load_document(tmp_path / "gone.md")


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


# --- what /load may name -----------------------------------------------------------------

@pytest.mark.parametrize("name", ["http://x", "https://example.com/a.txt", "file:///etc/passwd", "www.example.com"])
def test_a_url_is_refused_in_one_line_and_never_read_as_a_file(name):
    assert is_url(name)
    with pytest.raises(UserError, match="is a URL: .* nothing is downloaded"):
        refuse_url(name)


def test_a_plain_file_name_is_not_a_url(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "www.notes.txt", "x")
    assert not is_url("notes.txt") and not is_url("www.notes.txt") and not is_url("/tmp/a:b")


def test_a_folder_names_its_documents_at_any_depth_without_hidden_ones(tmp_path):
    for name in ("a.md", "b.txt", "sub/c.pdf", "sub/d.py", ".hidden/e.md", "f.MD"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    found = document_paths(str(tmp_path))
    assert [name for _, name in found] == ["a.md", "b.txt", "f.MD", "sub/c.pdf"]
    assert found[-1][0] == tmp_path / "sub" / "c.pdf"


def test_a_glob_names_what_it_matches_relative_to_the_script(tmp_path, monkeypatch):
    monkeypatch.chdir("/")
    for name in ("x1.md", "x2.md", "y.txt"):
        write(tmp_path, name, "x")
    assert [name for _, name in document_paths("x*.md", tmp_path)] == ["x1.md", "x2.md"]
    for sub in ("a", "b"):
        (tmp_path / sub).mkdir()
        write(tmp_path, f"{sub}/n.md", "x")
    assert [name for _, name in document_paths(str(tmp_path / "*" / "n.md"))] == ["a/n.md", "b/n.md"]
    with pytest.raises(UserError, match="no files match"):
        document_paths("z*.md", tmp_path)


def test_a_single_file_is_not_a_folder_or_pattern(tmp_path):
    assert document_paths(str(write(tmp_path, "one.txt", "x"))) is None
    with pytest.raises(UserError, match="holds no .txt, .md or .pdf"):
        (tmp_path / "empty").mkdir()
        document_paths(str(tmp_path / "empty"))
