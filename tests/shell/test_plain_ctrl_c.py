"""`sym --plain` in a real terminal (a pty): Ctrl+C reaches every process of the job, as a terminal
sends it, and stays clean at any moment; the first /math included (its helper processes were
still starting and died with a KeyboardInterrupt traceback, then "internal error: EOFError")."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import termios
import time

import pytest

WITHIN = 60.0       # a bound against hanging, not a speed


class Terminal:
    """`sym --plain` on a pty of its own (a session leader: Ctrl+C goes to its whole process group)."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:          # the child
            os.execvpe(argv[0], argv, env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        self.seen = ""

    def read_until(self, text: str, *, after: int = 0) -> None:
        end = time.monotonic() + WITHIN
        while text not in self.seen[after:]:
            assert time.monotonic() < end, f"no {text!r} within {WITHIN} s:\n{self.seen}"
            ready, _, _ = select.select([self.fd], [], [], 0.5)
            if ready:
                try:
                    self.seen += os.read(self.fd, 65536).decode("utf-8", "replace")
                except OSError:        # the child is gone
                    raise AssertionError(f"sym ended before {text!r}:\n{self.seen}") from None

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def close(self) -> int:
        try:
            self.type("/bye\r")        # a line waits in the terminal until read (a Ctrl+D too early is lost)
            end = time.monotonic() + WITHIN
            while time.monotonic() < end:
                done, status = os.waitpid(self.pid, os.WNOHANG)
                if done:
                    return os.waitstatus_to_exitcode(status)
                ready, _, _ = select.select([self.fd], [], [], 0.2)
                if ready:
                    try:
                        self.seen += os.read(self.fd, 65536).decode("utf-8", "replace")
                    except OSError:
                        pass
            os.kill(self.pid, 9)
            raise AssertionError(f"sym did not leave on /bye:\n{self.seen}")
        finally:
            os.close(self.fd)


def _children(pid: int) -> list[str]:
    """The command lines of the processes whose parent is `pid`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                ppid = int(stat.read().rsplit(")", 1)[1].split()[1])
            if ppid == pid:
                with open(f"/proc/{entry}/cmdline", "rb") as cmd:
                    found.append(cmd.read().replace(b"\0", b" ").decode("utf-8", "replace"))
        except (OSError, ValueError, IndexError):
            continue
    return found


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc to see the helper start")
def test_ctrl_c_while_the_first_math_starts_its_worker_is_clean(sym_exe, sym_home):
    env = dict(os.environ, SYM_HOME=str(sym_home), TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1")
    term = Terminal([*sym_exe, "--plain", "--memory", "ctrlc"], env)
    try:
        term.read_until("sym>")
        term.type("/math factor x**2 - 1\r")
        end = time.monotonic() + WITHIN           # Ctrl+C once the helper is starting (importing SymPy)
        while not any("forkserver" in c for c in _children(term.pid)):
            assert time.monotonic() < end, f"no /math helper started:\n{term.seen}"
            time.sleep(0.01)
        before = len(term.seen)
        term.type("\x03")
        term.read_until("sym>", after=before)     # the prompt comes back
        again = len(term.seen)
        term.type("/math factor x**2 - 1\r")      # and /math still works
        term.read_until("(x - 1)*(x + 1)", after=again)
    finally:
        code = term.close()
    assert "Traceback" not in term.seen and "KeyboardInterrupt" not in term.seen, term.seen
    assert "internal error" not in term.seen, term.seen
    assert code == 0
