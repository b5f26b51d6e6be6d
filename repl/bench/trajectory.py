"""VERTEX-style trajectory scores (SymbolicAI, Dinu et al. 2024, eq. 4 and Appendix B): each step of a
recorded run is embedded and compared, by the cross term of the MMD, with the same step of one or more
reference trajectories. This room scores lists of step texts and reads step files; it opens no session
log itself (repl/bench.py does) and never evaluates what it reads.

For step t, with the run's step x_t, the references' steps y_1..y_n (those references that have a step t),
a Gaussian kernel k(a, b) = exp(-||â - b̂||² / 2σ²) on L2-normalised embeddings, and the mean cross term
C(X, Y) = 1/(|X||Y|) Σ_i Σ_j k(x_i, y_j) (eq. 11 without its factor 2, which the rescaling cancels):

    c_t = C({x_t}, Y_t)                         the run's cross-similarity to the references
    r_t = C(RANDOM_STEPS, Y_t)                  what a random step would get (the paper's z_rand)
    z_t = mean_i C({y_i}, Y_t)                  what the references get among themselves (the paper's z)
    s_t = min(max(0, (c_t - r_t) / (z_t - r_t)), 1)

and the overall score is the mean of s_t over the aligned steps (the integral over t). Steps align by
index: there are max(len(run), longest reference) of them; a step the run lacks, or a run step that no
reference reaches, scores 0. A run scored against itself gets exactly 1.0 (c = z = k(x, x) = 1).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sym.core.errors import UserError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from sym.core.memory.embedders import Embedder

# The paper's random trajectory (the printable ASCII characters) and a few steps about nothing a
# trajectory is likely to be about: their mean similarity to the references is the baseline r_t.
RANDOM_STEPS = (
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt.",
    "The recipe calls for two cups of flour, a pinch of salt and warm water.",
    "Our train was delayed by snow on the tracks near the old harbour.",
    "qvx zjk wpf ymb tlh gsd crn okue",
)
KERNEL = "gaussian"
DEFAULT_SIGMA = 1.0
# result fields that say where or when, not what: left out of a session step's text
_NOT_CONTENT = frozenset({"command", "ok", "id", "source", "seq", "ts", "created_at", "loaded_at", "started",
                          "path", "input"})


@dataclass(frozen=True)
class StepScore:
    """One aligned step: its score s_t and the three terms it is made of (None where there is no
    comparison: the run lacks the step, or no reference reaches it)."""

    index: int                   # 1-based
    text: str | None             # the run's step; None when the run has no step here
    references: int              # how many reference trajectories have this step
    score: float
    similarity: float | None = None   # c_t
    random: float | None = None       # r_t
    reference: float | None = None    # z_t

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.index, "score": self.score, "similarity": self.similarity, "random": self.random,
                "reference": self.reference, "references": self.references, "text": self.text}


@dataclass(frozen=True)
class TrajectoryScore:
    embedder: str
    sigma: float
    baseline: str                # "random" (r_t as above) or "none" (r_t = 0)
    overall: float
    steps: list[StepScore] = field(default_factory=list)
    run_steps: int = 0
    reference_steps: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"embedder": self.embedder, "kernel": KERNEL, "sigma": self.sigma, "baseline": self.baseline,
                "overall": self.overall, "run_steps": self.run_steps, "reference_steps": self.reference_steps,
                "steps": [s.to_dict() for s in self.steps]}


def _unit(vector: list[float]) -> tuple[float, ...]:
    norm = math.sqrt(sum(x * x for x in vector))
    return tuple(x / norm for x in vector) if norm > 0.0 else tuple(0.0 for _ in vector)


def gaussian(a: tuple[float, ...], b: tuple[float, ...], sigma: float) -> float:
    """exp(-||a - b||² / 2σ²): exactly 1.0 for identical vectors, symmetric to the last bit."""
    return math.exp(-sum((x - y) ** 2 for x, y in zip(a, b)) / (2.0 * sigma * sigma))


def cross_similarity(xs: Sequence[tuple[float, ...]], ys: Sequence[tuple[float, ...]], sigma: float) -> float:
    """The MMD cross term as a mean: 1/(|xs||ys|) Σ_i Σ_j k(x_i, y_j)."""
    return sum(gaussian(x, y, sigma) for x in xs for y in ys) / (len(xs) * len(ys))


def score_trajectory(run: list[str], references: list[list[str]], embedder: Embedder, *, sigma: float = DEFAULT_SIGMA,
                     baseline: str = "random") -> TrajectoryScore:
    """Score the run's steps against the reference trajectories (see the module docstring)."""
    if not (isinstance(sigma, (int, float)) and math.isfinite(sigma) and sigma > 0):
        raise UserError(f"the kernel bandwidth must be a positive number, not {sigma!r}")
    if baseline not in ("random", "none"):
        raise UserError(f"unknown baseline {baseline!r}", hint="--baseline random or none")
    if not run:
        raise UserError("the run has no steps")
    if not references or any(not ref for ref in references):
        raise UserError("every reference trajectory needs at least one step")
    randoms = list(RANDOM_STEPS) if baseline == "random" else []
    # one batch of distinct texts: the same text always gets the very same vector
    texts = list(dict.fromkeys([*run, *(s for ref in references for s in ref), *randoms]))
    vectors = embedder.embed(texts)
    if len(vectors) != len(texts) or len({len(v) for v in vectors}) != 1:
        raise UserError(f"the {embedder.name} embedder gave {len(vectors)} vectors of mixed sizes "
                        f"for {len(texts)} texts")
    unit = {t: _unit(v) for t, v in zip(texts, vectors)}
    noise = [unit[t] for t in randoms]

    steps = []
    for t in range(max(len(run), *(len(ref) for ref in references))):
        text = run[t] if t < len(run) else None
        ys = [unit[ref[t]] for ref in references if t < len(ref)]
        if text is None or not ys:
            steps.append(StepScore(t + 1, text, len(ys), 0.0))
            continue
        c = cross_similarity([unit[text]], ys, sigma)
        r = cross_similarity(noise, ys, sigma) if noise else 0.0
        z = sum(cross_similarity([y], ys, sigma) for y in ys) / len(ys)
        # z > r unless the references are no closer to one another than noise is; then no rescaling
        s = (c - r) / (z - r) if z - r > 1e-12 else c
        steps.append(StepScore(t + 1, text, len(ys), min(max(0.0, s), 1.0), c, r, z))
    overall = sum(s.score for s in steps) / len(steps)
    return TrajectoryScore(embedder.name, float(sigma), baseline, overall, steps, len(run),
                           [len(ref) for ref in references])


# -- reading trajectories ----------------------------------------------------------------

def steps_from_jsonl(text: str, name: str) -> list[str]:
    """Steps from JSON lines: {"step": TEXT}, {"text": TEXT} or a bare JSON string per line (blank
    lines skipped). Anything else is a UserError naming the line."""
    steps = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):
            raise UserError(f"{name}:{number}: not JSON",
                            hint='one step a line: {"step": "..."}, {"text": "..."} or "..."') from None
        if isinstance(value, dict):
            value = value.get("step", value.get("text"))
        if not isinstance(value, str):
            raise UserError(f"{name}:{number}: not a step",
                            hint='one step a line: {"step": "..."}, {"text": "..."} or "..."')
        steps.append(value)
    if not steps:
        raise UserError(f"{name} has no steps", hint='one step a line: {"step": "..."}')
    return steps


def steps_from_session(events: list[dict[str, Any]], name: str) -> list[str]:
    """Steps from a session log's events: one per input, its text followed by the values of its result
    (ids, sources and timestamps left out, which differ between runs of the same thing). An output
    without an input is a step of its own; memory, model-call and note events are not steps."""
    steps: list[list[str]] = []
    by_input: dict[object, int] = {}   # input seq -> its step
    for event in events:
        if event.get("t") == "input":
            by_input[event["seq"]] = len(steps)
            steps.append([event["text"]])
        elif event.get("t") == "output":
            values: list[str] = []
            _values(event.get("result"), values, 0)
            at = by_input.get(event.get("input"))
            if at is None:
                steps.append(values)
            else:
                steps[at].extend(values)
    texts = ["\n".join(parts) for parts in steps]
    if not texts:
        raise UserError(f"{name} is a session with no inputs, so no steps")
    return texts


def _values(value: object, out: list[str], depth: int) -> None:
    if depth > 50:
        return
    if isinstance(value, dict):
        for key, v in value.items():
            if key not in _NOT_CONTENT:
                _values(v, out, depth + 1)
    elif isinstance(value, list):
        for v in value:
            _values(v, out, depth + 1)
    elif isinstance(value, bool):
        out.append("true" if value else "false")
    elif isinstance(value, (int, float)):
        out.append(str(value))
    elif isinstance(value, str) and value.strip():
        out.append(value)


def read_text(path: Path) -> str:
    """A trajectory file's text (undecodable bytes replaced); a missing or unreadable file is one line."""
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except FileNotFoundError:
        raise UserError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise UserError(f"{path} is a folder, not a trajectory file") from None
    except OSError as err:
        raise UserError(f"cannot read {path}: {err.strerror or err}") from None


def is_session_log(text: str) -> bool:
    """Whether a file's first line is a sym session header."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        head = json.loads(first)
    except (ValueError, RecursionError):
        return False
    return isinstance(head, dict) and head.get("t") == "header"
