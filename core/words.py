"""Counts in words: "1 chunk", "2 chunks" — every message that counts says it this way."""

from __future__ import annotations


def count(n: int, word: str, plural: str | None = None) -> str:
    """`n` and the word, singular for exactly one ("1 rule", "0 rules", "2 matches" with `plural`)."""
    return f"{n:,} {word if n == 1 else plural or word + 's'}"
