"""`sym bench table`: runs of `sym bench logic|swm --json` side by side, a row per dataset and run
(sym at each K, the model alone), from the runs' item lines."""

from __future__ import annotations

import io
import json
import subprocess

import pytest

from sym.core.errors import UserError
from sym.repl.bench import run_logic
from sym.repl.bench.table import rows, write
from tests.bench.test_bench_logic import truth_item
from tests.bench.test_bench_logic import write as write_items


def _bench(tmp_path, name: str, samples: int) -> str:
    """A --json run of three truth items with no model (the bridge decides two of them)."""
    items = write_items(tmp_path, [truth_item("t1", "Tom is an animal.", "A"), truth_item("t2", "Rex is a cat.", "B"),
                                   truth_item("t4", "Tom is a dog.", "A")])      # gold says True: sym says Uncertain
    out = io.StringIO()
    assert run_logic(items, path="ask", llm_mode="off", as_json=True, samples=samples, out=out, err=io.StringIO()) == 0
    path = tmp_path / name
    path.write_text(out.getvalue() + "not json\n")
    return str(path)


def test_runs_at_different_k_are_rows_of_their_own_with_coverage_and_precision(tmp_path):
    one, three = _bench(tmp_path, "k1.jsonl", 1), _bench(tmp_path, "k3.jsonl", 3)
    assert [(r.dataset, r.run, len(r.items)) for r in rows([one, three])] == [
        ("folio_tiny", "sym ask K=1", 3), ("folio_tiny", "sym ask K=3", 3)]
    out = io.StringIO()
    assert write([one, three], out, markdown=True) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == ("| data | run | n | accuracy | decided | precision | abstained | fallback (right) | "
                        "model text (right) | calls/item | tokens/item | s/item |")
    assert lines[2].startswith("| folio_tiny | sym ask K=1 | 3 | 2/3 (67%) | 3/3 | 2/3 | 0 | 0 (0) | 0 (0) | 0.0 | 0 |")
    assert lines[3].startswith("| folio_tiny | sym ask K=3 | 3 |")


def test_the_model_alone_is_its_own_row_and_has_no_coverage(tmp_path):
    path = tmp_path / "runs.jsonl"
    line = {"type": "item", "dataset": "d", "mode": "-", "calls": 1, "seconds": 4.0}
    path.write_text("\n".join(json.dumps({**line, "system": "llm", "by": "llm", "correct": right})
                              for right in (True, False)) + "\n")
    [row] = rows([str(path)])
    assert row.cells() == ["d", "model alone", "2", "1/2 (50%)", "—", "—", "—", "—", "—", "1.0", "0", "4"]


def test_a_chat_turns_closing_text_is_its_own_column_never_decided_by_sym(tmp_path):
    """Issue 53: both chat answers came from the model's text, yet the row said decided 1 and
    precision 0/2. Only `by: sym` (a verified result) is decided; `by: text` is the model's words."""
    path = tmp_path / "chat.jsonl"
    line = {"type": "item", "dataset": "folio", "system": "sym", "mode": "chat", "samples": 1, "seconds": 2.0}
    said = [("text", True, 14, 900), ("text", False, 12, 800), ("sym", True, 20, 1300), ("none", False, 16, 1000)]
    path.write_text("\n".join(json.dumps({**line, "by": by, "correct": right, "calls": calls, "tokens": tokens})
                              for by, right, calls, tokens in said) + "\n")
    [row] = rows([str(path)])
    assert row.cells() == ["folio", "sym chat K=1", "4", "2/4 (50%)", "1/4", "1/1", "3", "0 (0)", "2 (1)",
                           "15.5", "1000", "2"]


def test_a_file_with_no_items_or_none_at_all_is_one_clear_error(tmp_path, sym_exe):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("{}\n")
    with pytest.raises(UserError, match="no item lines"):
        write([str(empty)], io.StringIO())
    run = subprocess.run([*sym_exe, "bench", "table", str(tmp_path / "missing.jsonl")], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 2 and run.stderr.startswith("sym: cannot read") and "Traceback" not in run.stderr


def test_the_command_prints_an_aligned_table(tmp_path, sym_exe):
    path = _bench(tmp_path, "k1.jsonl", 1)
    run = subprocess.run([*sym_exe, "bench", "table", path], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    header, row = run.stdout.splitlines()
    assert header.split()[:4] == ["data", "run", "n", "accuracy"]
    assert row.split()[:9] == ["folio_tiny", "sym", "ask", "K=1", "3", "2/3", "(67%)", "3/3", "2/3"]
