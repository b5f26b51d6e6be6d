"""Loaders for rule-application datasets shaped like the SWM paper's data (ProofWriter,
CLUTRR, Boxes, AR-LSAT) and the answer check for each. Reads every `*.json` under
`DIR/<dataset>/` (any depth, any file name); knows nothing of reasoning.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sym.core.errors import UserError
from sym.core.reason.swm.english import split_sentences

if TYPE_CHECKING:
    from collections.abc import Sequence

DATASETS = ("proofwriter", "clutrr", "boxes", "lsat-ar")


@dataclass(frozen=True)
class Problem:
    """One evaluation item. `gold` is the dataset's answer as stored (bool/"Unknown", a
    sentence, a list of items, a letter); `gold_facts` are CLUTRR's chain edges as sentences."""

    dataset: str
    id: str
    context_sentences: list[str]
    rules: list[str]
    question: str
    gold: object
    gold_facts: list[str] = field(default_factory=list)
    options: list[str] = field(default_factory=list)
    context: str = ""


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.json") if p.is_file())


def _records(path: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise UserError(f"{path}: not readable JSON ({err})", hint="each data file holds one JSON array") from None
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise UserError(f"{path}: expected a JSON array of objects")
    return data


def _need(record: dict[str, Any], key: str, path: Path, index: int) -> Any:
    if key not in record:
        raise UserError(f"{path} item {index}: missing field {key!r}")
    return record[key]


def _edge_sentence(edge: Sequence[str]) -> str:
    """A CLUTRR chain edge [A, rel, B] reads "B is the rel of A." (B is A's rel)."""
    a, rel, b = edge
    return f"{b} is the {rel} of {a}."


def _problem(dataset: str, record: dict[str, Any], path: Path, root: Path, index: int) -> Problem:
    pid = str(record.get("id") or f"{path.relative_to(root).as_posix()}#{index}")
    if dataset == "proofwriter":
        facts = list(_need(record, "facts", path, index))
        rules = list(_need(record, "rules", path, index))
        return Problem(dataset, pid, facts, rules, _need(record, "question", path, index),
                       _need(record, "answer", path, index), context=" ".join(facts + rules))
    if dataset == "clutrr":
        text = _need(record, "query", path, index)
        sentences = split_sentences(text)
        asked = [i for i, s in enumerate(sentences) if s.endswith("?")]
        at = asked[-1] if asked else len(sentences)
        question = sentences[at] if asked else ""
        edges = record.get("grounded_variables") or []
        return Problem(dataset, pid, sentences[:at], list(_need(record, "rule", path, index)), question,
                       _need(record, "answer", path, index), [_edge_sentence(e) for e in edges],
                       context=" ".join(sentences[:at]))
    if dataset == "boxes":
        text = _need(record, "context", path, index)
        gold = record["answers"] if "answers" in record else _need(record, "answer", path, index)
        return Problem(dataset, pid, split_sentences(text), [], _need(record, "question", path, index),
                       list(gold) if isinstance(gold, list) else [gold], context=text)
    text = _need(record, "context", path, index)
    return Problem(dataset, pid, split_sentences(text), [], _need(record, "question", path, index),
                   _need(record, "answer", path, index), options=list(record.get("options") or []),
                   context=text)


def kind_of(dataset: str) -> str:
    """The dataset a name stands for: "clutrr/rule_shuffle" (one of its folders) is CLUTRR."""
    return dataset.split("/", 1)[0]


def load(root: str | Path, dataset: str) -> list[Problem]:
    """Every problem of one dataset under ROOT/<dataset>/ (files in sorted path order); a
    dataset's folder may be named ("clutrr/rule_shuffle": only that setting)."""
    kind = kind_of(dataset)
    if kind not in DATASETS or ".." in dataset.split("/"):
        raise UserError(f"unknown dataset {dataset!r}", hint=f"one of {', '.join(DATASETS)}, or one of their folders "
                                                             "(clutrr/rule_shuffle)")
    root = Path(root)
    folder = root / dataset
    if not folder.is_dir():
        raise UserError(f"no folder {folder}", hint="the data folder holds proofwriter/, clutrr/, boxes/, lsat-ar/")
    return [_problem(kind, rec, path, folder, i)
            for path in _files(folder) for i, rec in enumerate(_records(path))]


def available(root: str | Path) -> list[str]:
    """The datasets that have a folder under ROOT."""
    return [d for d in DATASETS if (Path(root) / d).is_dir()]


# -- answer checks -----------------------------------------------------------------------

_RELATION = re.compile(r"(.+?)\s+is\s+the\s+(.+?)\s+of\s+(.+?)\s*[.!]?\s*$", re.I)


def _norm(text: str) -> str:
    return re.sub(r"[\s_-]+", "", text.lower())


def _truth_word(value: object) -> str | None:
    if isinstance(value, bool):
        return "true" if value else "false"
    m = re.search(r"\b(true|false|unknown)\b", str(value).lower())
    return m.group(1) if m else None


def _item_set(value: object) -> frozenset[str]:
    parts = value if isinstance(value, list) else re.split(r",|\band\b", str(value))
    items = set()
    for part in parts:
        item = " ".join(str(part).lower().strip().rstrip(".").split())
        item = item.removeprefix("the ").strip()
        if item and item != "nothing":
            items.add(item)
    return frozenset(items)


def _relation(text: object) -> tuple[str, str, str] | None:
    m = _RELATION.match(" ".join(str(text).split()))
    return (_norm(m.group(1)), _norm(m.group(2)), _norm(m.group(3))) if m else None


def is_correct(problem: Problem, answer: str | None) -> bool:
    """Whether an answer text matches the gold answer, the way the paper scores it."""
    if answer is None:
        return False
    if problem.dataset == "proofwriter":
        return _truth_word(answer) is not None and _truth_word(answer) == _truth_word(problem.gold)
    if problem.dataset == "clutrr":
        gold, got = _relation(problem.gold), _relation(answer)
        if gold is None:
            return _norm(str(answer)) == _norm(str(problem.gold))
        if got is None:  # a bare relation word
            return _norm(str(answer).strip().rstrip(".")) == gold[1]
        return got == gold
    if problem.dataset == "boxes":
        return _item_set(answer) == _item_set(problem.gold)
    m = re.search(r"\b([A-E])\b", str(answer).strip())
    return m is not None and m.group(1) == str(problem.gold).strip().upper()[:1]
