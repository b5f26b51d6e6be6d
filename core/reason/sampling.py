"""What every sampled reading shares (settings llm.samples, llm.sample_temperature): sample n
is drawn at the sample temperature with seed SAMPLE_SEED + n, so the K samples differ yet each
is a request of its own that the call log, the session and an offline replay answer exactly;
and the majority, which a tie at the top denies. Used by program voting (pot/vote.py) and by
extraction voting (swm/extract_vote.py)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable
from typing import Any, TypeVar

SAMPLE_SEED = 7000         # sample n is drawn with seed SAMPLE_SEED + n: varied, yet replayable

H = TypeVar("H", bound=Hashable)


def sample_options(temperature: float, k: int) -> list[dict[str, Any]]:
    """The options of samples 1 … k: the sample temperature and a seed each."""
    return [{"temperature": float(temperature), "seed": SAMPLE_SEED + n} for n in range(1, max(1, int(k)) + 1)]


def majority(said: Iterable[H]) -> H | None:
    """What was said most often; None for nothing said or a tie at the top."""
    ranked = Counter(said).most_common(2)
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def needed(accepted: int) -> int:
    """How many of `accepted` samples make a strict majority (a tie is none)."""
    return accepted // 2 + 1
