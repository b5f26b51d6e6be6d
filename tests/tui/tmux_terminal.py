"""`sym` in a real terminal: a detached tmux session driven by keys and pastes, read by capturing the pane.

A test waits for what the screen shows (polling `tmux capture-pane` up to a generous deadline), never
for a fixed time, so a loaded machine makes it slower, not flaky. Used by tests/tui/test_tmux_*.py,
which skip where tmux is not installed.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import time
import uuid
from collections.abc import Callable

HAS_TMUX = shutil.which("tmux") is not None
DEADLINE = 90.0       # seconds a screen may take to show what is expected (a bound against hanging)
# the TUI: the status line names the workspace once it is open (a narrow one without the word
# "workspace"); the input takes keys once the intro shows
READY = ("default ·", "sym — type a fact")
UNREACHABLE = "http://127.0.0.1:9"     # a model server that refuses at once: English lines say "offline"


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=True).stdout


class Terminal:
    """One `sym` in a detached tmux session of `size` columns and lines."""

    def __init__(self, sym_exe: list[str], sym_home, *args: str, size: tuple[int, int] = (160, 45)) -> None:
        self.name = f"sym-{uuid.uuid4().hex[:10]}"
        self.buffer = f"paste-{self.name}"
        # COLUMNS and LINES unset: pytest exports its own terminal's, and Textual would draw at that size
        command = ["env", "-u", "COLUMNS", "-u", "LINES", f"SYM_HOME={sym_home}", f"OLLAMA_HOST={UNREACHABLE}",
                   "TERM=xterm-256color", *sym_exe, *args]
        tmux("new-session", "-d", "-s", self.name, "-x", str(size[0]), "-y", str(size[1]),
             " ".join(shlex.quote(a) for a in command))

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)
        subprocess.run(["tmux", "delete-buffer", "-b", self.buffer], capture_output=True)

    def pane(self) -> str:
        return tmux("capture-pane", "-p", "-t", self.name)

    def wait(self, condition: str | Callable[[str], bool], timeout: float = DEADLINE) -> str:
        """The pane once it shows `condition` (a text, or a test of the pane's text)."""
        test = (lambda pane: condition in pane) if isinstance(condition, str) else condition
        end = time.monotonic() + timeout
        pane = ""
        while time.monotonic() < end:
            pane = self.pane()
            if test(pane):
                return pane
            time.sleep(0.2)
        raise AssertionError(f"{condition!r} never showed; the pane shows:\n{pane}")

    def ready(self) -> None:
        for text in READY:
            self.wait(text)

    def keys(self, *keys: str) -> None:
        """Keys by tmux's names (Enter, Escape, C-c, F2, DC for Delete, Down)."""
        tmux("send-keys", "-t", self.name, *keys)

    def type(self, text: str, enter: bool = True) -> None:
        tmux("send-keys", "-t", self.name, "-l", text)
        if enter:
            self.keys("Enter")

    def paste(self, text: str) -> None:
        """Paste `text` as a terminal does: bracketed, lines ended by CR."""
        tmux("set-buffer", "-b", self.buffer, text.replace("\n", "\r"))
        tmux("paste-buffer", "-p", "-d", "-b", self.buffer, "-t", self.name)

    def running(self) -> bool:
        return subprocess.run(["tmux", "has-session", "-t", self.name], capture_output=True).returncode == 0


def left(pane: str) -> str:
    """The transcript's column of a captured pane (the side pane cut off at its border), each line stripped."""
    return "\n".join(line.split("│")[0].strip() for line in pane.splitlines())


def right(pane: str) -> str:
    """The side pane's column of a captured pane (empty where it is hidden)."""
    return "\n".join(line.split("│", 1)[1] if "│" in line else "" for line in pane.splitlines())


def status(pane: str) -> str:
    """The status line (the pane's last non-empty line)."""
    return [line for line in pane.splitlines() if line.strip()][-1]
