"""`sym bench table FILE…`: the runs of `sym bench swm|logic --json` side by side, one row per
dataset, system and number of samples (sym K=1, sym K=3, the model alone), from their items'
lines: accuracy, decided by sym (coverage: a verified result only), right when decided
(precision), abstained, the fallback and a chat turn's closing text (the model's words, each
with how often it was right), calls, tokens and seconds per item. The numbers the issue of
small models asks for: whether sym's own answers can be trusted, and what they cost."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from sym.core.errors import UserError

COLUMNS = ("data", "run", "n", "accuracy", "decided", "precision", "abstained", "fallback (right)",
           "model text (right)", "calls/item", "tokens/item", "s/item")


@dataclass
class Row:
    dataset: str
    run: str
    items: list[dict[str, Any]]

    def cells(self) -> list[str]:
        n = len(self.items)
        right = sum(bool(i.get("correct")) for i in self.items)
        calls = sum(int(i.get("calls", 0)) for i in self.items) / n
        tokens = sum(int(i.get("tokens", 0)) for i in self.items) / n
        seconds = sum(float(i.get("seconds", 0.0)) for i in self.items) / n
        head = [self.dataset, self.run, str(n), f"{right}/{n} ({right / n:.0%})"]
        cost = [f"{calls:.1f}", f"{tokens:.0f}", f"{seconds:.0f}"]
        if not self.run.startswith("sym"):
            return [*head, "—", "—", "—", "—", "—", *cost]
        decided = [i for i in self.items if i.get("by") == "sym"]      # from a verified result only

        def answered(by: str) -> str:
            found = [i for i in self.items if i.get("by") == by]
            return f"{len(found)} ({sum(bool(i.get('correct')) for i in found)})"
        good = sum(bool(i.get("correct")) for i in decided)
        return [*head, f"{len(decided)}/{n}", f"{good}/{len(decided)}" if decided else "—", str(n - len(decided)),
                answered("fallback"), answered("text"), *cost]


def rows(paths: list[str]) -> list[Row]:
    """One row per (dataset, system and mode, samples) over the item lines of every file, in the
    order first seen; a line that is not JSON is skipped, a file that cannot be read is a UserError."""
    grouped: dict[tuple[str, str], Row] = {}
    for path in paths:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as err:
            raise UserError(f"cannot read {path}: {err.strerror or err}") from None
        for line in text.splitlines():
            try:
                item = json.loads(line)
            except json.JSONDecodeError:
                continue
            if not isinstance(item, dict) or item.get("type") != "item":
                continue
            dataset = str(item.get("dataset") or Path(path).stem)
            run = _run(item, Path(path).stem)
            grouped.setdefault((dataset, run), Row(dataset, run, [])).items.append(item)
    return list(grouped.values())


def _run(item: dict[str, Any], file: str) -> str:
    """The run an item line belongs to: "sym prove K=3", "model alone"; a line written before
    lines said their samples is told apart by its file ("sym prove (run1)")."""
    if item.get("system") != "sym":
        return "model alone"
    mode = str(item.get("mode") or "").strip()
    samples = f"K={item['samples']}" if "samples" in item else f"({file})"
    return " ".join(w for w in ("sym", mode, samples) if w)


def write(paths: list[str], out: IO[str], *, markdown: bool = False) -> int:
    """The table of `paths` to `out` (UserError when no file holds an item line)."""
    found = rows(paths)
    if not found:
        raise UserError("no item lines in " + ", ".join(paths), hint="write them with sym bench swm|logic --json")
    table = [list(COLUMNS), *(row.cells() for row in found)]
    if markdown:
        out.write("| " + " | ".join(table[0]) + " |\n|" + "---|" * len(COLUMNS) + "\n")
        for cells in table[1:]:
            out.write("| " + " | ".join(cells) + " |\n")
        return 0
    widths = [max(len(cells[i]) for cells in table) for i in range(len(COLUMNS))]
    for cells in table:
        out.write("  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))
                  .rstrip() + "\n")
    return 0
