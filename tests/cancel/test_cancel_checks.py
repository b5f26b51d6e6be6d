"""Cancel is checked often enough to stop /load and /infer within a fraction of a second however
long the job: while a file is read and decoded, while a text with no headings is cut, between
small write batches sized by time, and inside a large join's aftermath (deduplication, copies,
appending millions of rows). Each test stops a job at a check and finds nothing half-done; the
timings on a loaded machine are benchmarks/cancel_bench.py's."""

from __future__ import annotations

import numpy as np
import pytest

from sym.core.errors import Cancelled


def headingless(path, paragraphs: int):
    path.write_text("".join(f"Paragraph {i} says something plain about item {i}, and then some more words.\n\n"
                            for i in range(paragraphs)), encoding="utf-8")
    return path


def test_a_long_text_with_no_headings_reports_progress_while_it_is_cut(monkeypatch):
    from sym.core.memory import passages

    consumed = []
    blocks = passages._blocks

    def counted(text):
        for n, block in enumerate(blocks(text), start=1):
            consumed.append(n)
            yield block

    monkeypatch.setattr(passages, "_blocks", counted)
    text = "".join(f"Paragraph {i} is short.\n\n" for i in range(20_000))

    def stop(done, total):
        raise Cancelled()

    with pytest.raises(Cancelled):
        passages.cut_passages(text, progress=stop)
    assert len(consumed) <= 1_000          # it read all 20,000 blocks before its first progress


def test_a_big_file_is_read_and_decoded_in_pieces_with_progress_between(tmp_path):
    from sym.core.memory import documents

    path = headingless(tmp_path / "big.txt", 150_000)          # about 12 MB
    calls = []
    text, _ = documents._read(path, 100, progress=lambda done, total: calls.append((done, total)))
    assert text == path.read_text(encoding="utf-8")
    size = path.stat().st_size
    assert len(calls) >= 2 * (size // documents.PIECE)        # reading, then decoding, piece by piece


def test_a_load_cancelled_at_any_check_keeps_nothing(shells, tmp_path, monkeypatch):
    from sym.core.memory import library, snapshot

    # writes are sized by how long the last part took; a step no part reaches makes the number of
    # checks the same in each load, whatever the machine's load (else the last stop may never come)
    monkeypatch.setattr(snapshot, "STEP_SECONDS", 1e9)
    shell = shells("w")
    store = shell.memory.store
    path = headingless(tmp_path / "notes.txt", 40_000)
    calls = []
    library.load(store, path, progress=lambda done, total: calls.append(1))
    library.remove(store, library.find(store, "notes.txt"))
    for stop_at in (1, len(calls) // 3, len(calls) // 2, len(calls) - 2):
        seen = 0

        def progress(done, total, stop_at=stop_at):
            nonlocal seen
            seen += 1
            if seen == stop_at:
                raise Cancelled()

        with pytest.raises(Cancelled):
            library.load(store, path, progress=progress)
        assert library.documents(store) == [] and store.count("docs") == 0


def test_writes_with_progress_start_small_and_stay_near_a_step_of_time(tmp_path):
    from sym.core.memory import snapshot
    from sym.core.memory.store import Record

    snap = snapshot.Snapshot(tmp_path / "items.sqlite")
    sizes = []
    seen = 0

    def write(db, part):
        sizes.append(len(part))

    def progress(done, total):
        nonlocal seen
        seen += 1
        if seen == 3:
            raise Cancelled()

    rows = [Record(f"r{i}", "x", {}) for i in range(50_000)]
    with pytest.raises(Cancelled):
        snap._in_chunks(rows, write, progress)
    assert sizes[0] == snapshot.MIN_STEP and len(sizes) == 2   # stopped after two small batches
    snap.close()


def test_appending_millions_of_derived_rows_checks_cancel_between_pieces():
    from sym.core.logic.columnar import Table, encode_key

    radix = 5000
    table = Table(2, radix)
    keys = encode_key([np.arange(3_000_000) % radix, np.arange(3_000_000) // radix], radix, 3_000_000)
    checks = []
    table.extend(keys, radix, lambda: checks.append(1), stride=1 << 20)
    assert len(checks) == 3 and table.n == 3_000_000
    assert table.contains(keys[-5:]).all() and not table.contains(np.array([radix * radix - 1])).any()

    stopped = Table(2, radix)
    calls = 0

    def cancel_second():
        nonlocal calls
        calls += 1
        if calls == 2:
            raise Cancelled()

    with pytest.raises(Cancelled):
        stopped.extend(keys, radix, cancel_second, stride=1 << 20)
    assert stopped.n == 1 << 20          # part-grown: the model holding it is thrown away


def test_a_large_inference_stops_at_a_late_check_and_keeps_no_model(sym):
    from sym.core.logic import pause

    sym("/fact " + " ".join(f"a({i})." for i in range(700)))
    sym("/fact " + " ".join(f"b({i})." for i in range(700)))
    sym("/rule pair(X, Y) :- a(X), b(Y).")
    calls = []
    check = pause.Budget.check

    def counting(self, rows=0):
        calls.append(1)
        return check(self, rows)

    pause.Budget.check = counting
    try:
        assert sym("/infer").ok
        total = len(calls)
        assert total >= 10          # 490,000 rows: checks between pieces, copies and appends
        sym.shell.memory.forget_derived()
        for stop_at in (total // 2, total - 1):
            calls.clear()

            def stopping(self, rows=0, stop_at=stop_at):
                calls.append(1)
                if len(calls) == stop_at and self.cancel is not None:
                    self.cancel.set()
                return check(self, rows)

            pause.Budget.check = stopping
            result = sym("/infer")
            assert not result.ok and result.exit_code == 130
            pause.Budget.check = check
            again = sym("/infer")                  # the half-built model was dropped: all of it again
            assert again.ok and again.to_dict()["derived"] == 490_000 and again.to_dict()["complete"]
            sym.shell.memory.forget_derived()
    finally:
        pause.Budget.check = check
