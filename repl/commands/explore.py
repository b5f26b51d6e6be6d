"""explore commands (filled in by their issue)."""

from __future__ import annotations
