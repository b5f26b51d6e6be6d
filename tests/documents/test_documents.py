"""Documents: reading .txt/.md/.pdf files into text, loading a document as passages with stable ids,
and what /load may name (files, folders, globs; never a URL). Chunking and passage cutting:
test_documents_chunking.py."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from sym.core.errors import UserError
from sym.core.memory.chunking import chunk_text
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
from sym.core.memory.passages import Passage

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
    message = caught.value.message     # a long path is shortened to keep the line one line
    assert message.startswith("no such file: ") and str(path)[:60] in message and "\n" not in message


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
