"""SymbolicAI's semantic operations with sym's bar: classify, compare and rank, each a model
call under a constraint that sym checks, with a labelled fallback when the model breaks it.

classify: exactly one of the labels (enum), else the label nearest by embedding. compare: an
embedding similarity always, plus the model's verdict (enum) and reasons, or no verdict. rank: a
listwise order checked to be a permutation, else pairwise choices, else embedding order. Every
model call goes through the `LLM` facade (recorded, replayable); nothing here writes memory.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any, Generic

from pydantic import BaseModel

from sym.core.errors import UserError
from sym.core.llm import LLMError
from sym.core.llm.jsonout import BadJSON, M, extract_json
from sym.core.reason.semantic import prompts
from sym.core.reason.semantic.chunks import CHUNK_CHARS, each_chunk, split
from sym.core.reason.semantic.cluster import nearest, similarity

if TYPE_CHECKING:
    from sym.core.llm import Message
    from sym.core.llm.facade import LLM
    from sym.core.memory.embedders import Embedder
    from sym.core.run import Run

REPAIRS = 1             # repair rounds after a reply that breaks the constraint, before the fallback
MAX_LABELS = 50
MAX_ITEMS = 30
PAIRWISE_MAX = 6        # up to 15 pairwise calls; more items fall back to embedding order
PAIR_BATCH = 4          # pairwise calls in flight at once (progress and cancel between batches)
JUDGE_CHARS = 4000      # characters of each text the model judges in /compare
ITEM_CHARS = 300        # characters of each item shown to the model in /rank


@dataclass
class Choice(Generic[M]):
    """An accepted reply (`value`), or None with the problems of the last rejected one."""

    value: M | None
    problems: list[str]
    calls: int


def choose(llm: LLM, messages: list[Message], schema: type[M], fmt: dict[str, Any], check: Callable[..., Any], *,
           purpose: str) -> Choice[M]:
    """One constrained call with REPAIRS repair rounds; a reply that still breaks the constraint
    comes back as a Choice without a value (the caller's fallback), any other failure raises."""
    calls = 0

    def count(n: int, _problems: list[str]) -> None:
        nonlocal calls
        calls = max(calls, n)

    try:
        value = llm.json_with_repair(messages, schema, check=check, attempts=REPAIRS, purpose=purpose, format=fmt,
                                     on_attempt=count)
    except LLMError as err:
        if err.reason != "bad-output":
            raise
        return Choice(None, list(getattr(err, "problems", None) or [err.message]), getattr(err, "calls", calls))
    return Choice(value, [], calls)


def _key(text: str) -> str:
    return " ".join(str(text).replace("_", " ").replace("-", " ").split()).lower()


def _clip(text: str, limit: int) -> tuple[str, bool]:
    return (text, False) if len(text) <= limit else (text[:limit - 1] + "…", True)


# -- classify ------------------------------------------------------------------------------

class Label(BaseModel):
    label: str


@dataclass
class ChunkLabel:
    label: str
    calls: int = 0
    fallback: bool = False
    answered: str = ""          # the model's rejected answer, when it gave one
    problem: str = ""
    score: float = 0.0          # the fallback label's cosine


@dataclass
class Classification:
    label: str
    labels: list[str]
    chunks: list[ChunkLabel] = field(default_factory=list)

    @property
    def votes(self) -> dict[str, int]:
        return dict(Counter(c.label for c in self.chunks))

    @property
    def fallbacks(self) -> list[int]:
        """Indexes of the chunks whose label the fallback chose."""
        return [n for n, c in enumerate(self.chunks) if c.fallback]

    @property
    def calls(self) -> int:
        return sum(c.calls for c in self.chunks)


def check_labels(labels: list[str]) -> list[str]:
    """The labels without repeats; a UserError for fewer than two or too many."""
    out: list[str] = []
    for label in labels:
        label = " ".join(label.split())
        if label and _key(label) not in {_key(x) for x in out}:
            out.append(label)
    if len(out) < 2:
        raise UserError("--labels needs at least two different labels", hint="e.g. --labels sports,politics,weather")
    if len(out) > MAX_LABELS:
        raise UserError(f"at most {MAX_LABELS} labels, not {len(out)}")
    return out


def classify(text: str, labels: list[str], run: Run, *, embedder: Embedder, max_chars: int = CHUNK_CHARS) -> Classification:
    """Exactly one of LABELS for TEXT: per chunk the model's choice (an enum), else the label
    nearest by embedding to its answer (or to the chunk); chunks vote, the earliest breaks ties."""
    labels = check_labels(labels)
    by_key = {_key(x): x for x in labels}
    chunks = split(text, max_chars)
    if not chunks:
        raise UserError("nothing to classify")

    def one(n: int, chunk: str) -> ChunkLabel:
        answered: list[str] = []

        def check(value: Label) -> list[str]:
            answered.append(value.label.strip())
            if _key(value.label) in by_key:
                return []
            return [f"label {value.label.strip()!r} is not one of the labels; choose exactly one of: "
                    f"{', '.join(labels)}"]

        c = choose(run.llm, prompts.classify_messages(labels, chunk, n, len(chunks)), Label,
                   prompts.label_format(labels), check, purpose="classify")
        if c.value is not None:
            return ChunkLabel(by_key[_key(c.value.label)], c.calls)
        said = next((a for a in reversed(answered) if a), "")
        best, scores = nearest(embedder, said or chunk, labels)
        return ChunkLabel(labels[best], c.calls, True, said, c.problems[0] if c.problems else "", scores[best])

    results = each_chunk(chunks, one, run, task="classify")
    votes = Counter(r.label for r in results)
    first: dict[str, int] = {}
    for n, r in enumerate(results):
        first.setdefault(r.label, n)
    label = max(votes, key=lambda x: (votes[x], -first[x]))
    return Classification(label, labels, results)


# -- compare -------------------------------------------------------------------------------

class Judgement(BaseModel):
    verdict: str
    reasons: list[str]


@dataclass
class Comparison:
    similarity: float
    embedder: str
    verdict: str = ""           # "" when the model's judgement broke its schema (the fallback)
    reasons: list[str] = field(default_factory=list)
    problem: str = ""
    calls: int = 0
    clipped: bool = False       # the model saw only the first JUDGE_CHARS of a text

    @property
    def fallback(self) -> bool:
        return not self.verdict


def compare(a: str, b: str, run: Run, *, embedder: Embedder, max_chars: int = CHUNK_CHARS) -> Comparison:
    """Embedding similarity of A and B (chunk vectors averaged), then the model's verdict from
    VERDICTS with reasons; a judgement that breaks the schema leaves the similarity alone."""
    ca, cb = split(a, max_chars), split(b, max_chars)
    if not ca or not cb:
        raise UserError("compare needs text on both sides of |||", hint="/compare A ||| B")
    score = similarity(embedder, ca, cb)
    run.check()
    shown_a, cut_a = _clip(a.strip(), JUDGE_CHARS)
    shown_b, cut_b = _clip(b.strip(), JUDGE_CHARS)

    def check(value: Judgement) -> list[str]:
        problems = []
        if _key(value.verdict) not in prompts.VERDICTS:
            problems.append(f"verdict {value.verdict!r} is not one of: {', '.join(prompts.VERDICTS)}")
        reasons = [r for r in value.reasons if r.strip()]
        if not reasons:
            problems.append("give at least one reason")
        elif len(value.reasons) > prompts.MAX_REASONS:
            problems.append(f"give at most {prompts.MAX_REASONS} reasons, not {len(value.reasons)}")
        return problems

    c = choose(run.llm, prompts.compare_messages(shown_a, shown_b), Judgement, prompts.judgement_format(), check,
               purpose="compare")
    name = getattr(embedder, "name", type(embedder).__name__)
    if c.value is None:
        return Comparison(score, name, problem=c.problems[0] if c.problems else "", calls=c.calls,
                          clipped=cut_a or cut_b)
    reasons = [" ".join(r.split()) for r in c.value.reasons if r.strip()]
    return Comparison(score, name, _key(c.value.verdict), reasons, calls=c.calls, clipped=cut_a or cut_b)


# -- rank ----------------------------------------------------------------------------------

class Order(BaseModel):
    order: list[int]


@dataclass
class Ranking:
    items: list[str]
    order: list[int]            # indexes into items, best first
    method: str                 # listwise | pairwise | embedding
    problem: str = ""           # why the listwise order was rejected
    calls: int = 0
    unusable: int = 0           # pairwise replies that chose neither A nor B (counted as ties)
    scores: list[float] = field(default_factory=list)   # per item: pairwise wins or cosine to the criterion

    @property
    def fallback(self) -> bool:
        return self.method != "listwise"


def check_items(items: list[str]) -> list[str]:
    items = [" ".join(i.split()) for i in items if i.strip()]
    if len(items) < 2:
        raise UserError("rank needs at least two items", hint='/rank apple, banana, cherry --by "sweetness"')
    if len(items) > MAX_ITEMS:
        raise UserError(f"at most {MAX_ITEMS} items to rank, not {len(items)}")
    return items


def permutation_problems(order: list[int], n: int) -> list[str]:
    """What keeps ORDER from being a permutation of 1..N (empty when it is one)."""
    counts = Counter(order)
    problems = [f"{k} is not an item number (1 to {n})" for k in counts if not 1 <= k <= n]
    problems += [f"{k} appears {c} times" for k, c in counts.items() if c > 1 and 1 <= k <= n]
    missing = [k for k in range(1, n + 1) if k not in counts]
    if missing:
        problems.append(f"{', '.join(map(str, missing))} {'is' if len(missing) == 1 else 'are'} missing")
    if problems:
        problems[-1] += f"; the order must hold each of 1 to {n} exactly once"
    return problems


def rank(items: list[str], criterion: str, run: Run, *, embedder: Embedder) -> Ranking:
    """A full order of ITEMS by CRITERION: the model's listwise order when it is a permutation;
    else pairwise choices (at most PAIRWISE_MAX items), else cosine to the criterion."""
    items = check_items(items)
    if not criterion.strip():
        raise UserError("rank by what?", hint='/rank apple, banana, cherry --by "sweetness"')
    shown = [_clip(i, ITEM_CHARS)[0] for i in items]
    n = len(items)
    run.check()
    c = choose(run.llm, prompts.rank_messages(shown, criterion), Order, prompts.order_format(n),
               lambda v: permutation_problems(v.order, n), purpose="rank")
    if c.value is not None:
        return Ranking(items, [k - 1 for k in c.value.order], "listwise", calls=c.calls)
    problem = c.problems[0] if c.problems else ""
    if n <= PAIRWISE_MAX:
        ranking = _pairwise(items, shown, criterion, run)
        if ranking is not None:
            ranking.problem, ranking.calls = problem, ranking.calls + c.calls
            return ranking
    _, scores = nearest(embedder, criterion, items)
    order = sorted(range(n), key=lambda i: (-scores[i], i))
    calls = c.calls + (n * (n - 1) // 2 if n <= PAIRWISE_MAX else 0)
    return Ranking(items, order, "embedding", problem, calls, scores=scores)


def _better(text: str) -> str | None:
    try:
        value = extract_json(text, want=dict)
    except BadJSON:
        return None
    choice = str(next((v for k, v in value.items() if _key(k) == "better"), "")).strip().upper()
    return choice if choice in ("A", "B") else None


def _pairwise(items: list[str], shown: list[str], criterion: str, run: Run) -> Ranking | None:
    """Copeland order from one call per pair (a reply that picks neither is a tie); None when no
    reply picked either."""
    progress = run.progress("rank pairs")
    pairs = list(combinations(range(len(items)), 2))
    wins = [0.0] * len(items)
    unusable = 0
    for start in range(0, len(pairs), PAIR_BATCH):
        run.check()
        progress(start, len(pairs))
        batch = pairs[start:start + PAIR_BATCH]
        replies = run.llm.chat_many([prompts.pair_messages(shown[i], shown[j], criterion) for i, j in batch],
                                purpose="rank.pair", format=prompts.pair_format())
        for (i, j), reply in zip(batch, replies):
            pick = _better(reply.text)
            if pick is None:
                unusable += 1
                wins[i] += 0.5
                wins[j] += 0.5
            else:
                wins[i if pick == "A" else j] += 1
    progress(len(pairs), len(pairs))
    if unusable == len(pairs):
        return None
    order = sorted(range(len(items)), key=lambda i: (-wins[i], i))
    return Ranking(items, order, "pairwise", calls=len(pairs), unusable=unusable, scores=wins)
