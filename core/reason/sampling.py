"""What every sampled reading shares (settings llm.samples, llm.sample_temperature): sample n
is drawn at the sample temperature with seed SAMPLE_SEED + n, so the K samples differ yet each
is a request of its own that the call log, the session and an offline replay answer exactly;
and the majority, which a tie at the top denies. Used by program voting (pot/vote.py) and by
extraction voting (swm/extract_vote.py).

Samples are drawn in rounds (`rounds`): first as many as make a majority, in parallel, then one
at a time, and no more once the vote is settled (`settled`: no sample still allowed could
change the winner). Three samples whose first two agree cost two calls; the verdict is the one
all K would give."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Iterator
from typing import Any, TypeVar

SAMPLE_SEED = 7000         # sample n is drawn with seed SAMPLE_SEED + n: varied, yet replayable
AGREE = 2                  # readings of a model-written program that must agree before it decides (pot/vote.py)

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


def settled(said: Iterable[H | None], remaining: int) -> bool:
    """Whether the majority of what was said (None: a sample that said nothing) is decided, so
    that `remaining` more samples could not change it."""
    ranked = Counter(v for v in said if v is not None).most_common(2)
    if not ranked:
        return False
    return ranked[0][1] - (ranked[1][1] if len(ranked) > 1 else 0) > remaining


def rounds(k: int) -> Iterator[list[int]]:
    """The sample numbers (1-based) to draw, round by round: the first `needed(k)` together, then
    one at a time. The caller stops asking once `settled`."""
    k = max(1, int(k))
    first = min(k, needed(k))
    yield list(range(1, first + 1))
    for n in range(first + 1, k + 1):
        yield [n]
