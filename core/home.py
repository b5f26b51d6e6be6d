"""Where sym keeps its data: `$SYM_HOME`, else the platform's user data directory. Workspaces,
sessions, the call log and the config file all live under it."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_dir


def data_dir() -> Path:
    """`$SYM_HOME`, else the platform's user data directory for sym."""
    home = os.environ.get("SYM_HOME")
    if home:
        return Path(home).expanduser()
    return Path(user_data_dir("sym", appauthor=False))
