"""What a replayed session may do without `--trust`: nothing outside its scratch directory, no other hosts.

A session file can come from anyone. Re-run as it stands, its inputs could write files (/export,
/save --script), read them into memory or send them to a model (/consult, /tell --from), or point
the shell at another server (`ollama_host` or `backend` in the header, a replayed /set). Each input is checked
here before it runs; one that would reach outside is skipped with a one-line reason. Inputs are
only split into words here, never evaluated; commands this guard does not know are skipped.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from sym.core.errors import UserError
from sym.repl.dispatcher import route

# commands that touch no file outside the data dir (the replay's scratch SYM_HOME) and no other host
SAFE_COMMANDS = frozenset({
    "/assert", "/query", "/chat", "/ask", "/check", "/cost", "/docs", "/explore", "/fact", "/forget", "/help",
    "/infer", "/listing", "/llm", "/math", "/memory", "/models", "/policy", "/program", "/prompters", "/rate",
    "/rule", "/schema", "/search", "/sessions", "/show", "/why", "/workspace", "/workspaces", "/bye", "/clear",
    "/compare", "/rank",
})
HOST_SETTINGS = frozenset({"ollama_host", "base_url", "chroma_url", "spark_master"})
# what picks the model server and what it is sent: always this machine's in an untrusted replay
SERVER_SETTINGS = frozenset({"backend", "base_url", "ollama_host", "api_key"})
_HOST_SUFFIXES = ("_host", "_url", "_path", "_dir", "_file", "_home")
TRUST_HINT = "replay with --trust to run it"


def is_host_or_path_setting(key: object) -> bool:
    """Settings a replayed log may not change: servers and places on disk."""
    k = str(key).strip().lower().replace("-", "_").replace(".", "_")
    return k in HOST_SETTINGS or k in SERVER_SETTINGS or k.endswith(_HOST_SUFFIXES) or k.endswith("_key")


class ReplayGuard:
    """Decides, input by input, whether an untrusted replay may run it (`None`) or why not (a reason)."""

    def __init__(self, scratch: Path, registry):
        self.scratch = scratch.resolve()
        self.registry = registry

    def check(self, text: str) -> str | None:
        name, arg = route(text)
        if not name:
            return None                       # logic text: asserted into the scratch workspace
        cmd = self.registry.get(name)
        if cmd is None:
            return None                       # an unknown command fails as it did when recorded
        name = cmd.name
        if name in SAFE_COMMANDS:
            return None
        check = getattr(self, "_" + name.lstrip("/"), None)
        if check is None:
            return f"{name} is not known to stay inside the replay's scratch directory"
        return check(arg)

    # -- per command -------------------------------------------------------------------

    def _set(self, arg: str) -> str | None:
        try:     # read as /set reads it: the key is the first word after the options
            args = self.registry.get("/set").parse(arg)
        except UserError:
            return None                       # fails as it did when recorded, changing nothing
        if args.values.get("save"):
            return "--save writes the config file, outside the replay's scratch directory"
        key = args.words[0] if args.words else ""
        if key and is_host_or_path_setting(key):
            return f"a replay keeps this machine's model server, hosts and paths ({key} not changed)"
        return None

    def _consult(self, arg: str) -> str | None:
        from sym.core.backends.tabular import parse_spec

        try:            # a table (FILE as NAME/ARITY) reads FILE
            table = parse_spec(arg)
        except UserError:
            table = None
        return self._paths([table.file if table is not None else arg.strip()], "reads", existing=True)

    _load = _consult

    def _tell(self, arg: str) -> str | None:
        text = arg.strip()
        if text == "--from" or text.startswith(("--from ", "--from\t")):
            return self._paths([text[len("--from"):].strip()], "reads")
        return None

    def _extract(self, arg: str) -> str | None:
        words = self._words(arg)
        if words is None:
            return "cannot check its file name"
        names = [words[i + 1] for i, w in enumerate(words[:-1]) if w == "--from"]
        return self._paths(names, "reads") if names else None

    _classify = _extract

    def _prove(self, arg: str) -> str | None:
        if not arg.strip().startswith("--file"):
            return None
        words = self._words(arg)
        return "cannot check its file name" if words is None else self._paths(words[1:], "reads", existing=True)

    def _save(self, arg: str) -> str | None:
        words = self._words(arg)
        if words is None:
            return "cannot check its arguments"
        return self._paths(words[1:], "writes") if words[:1] == ["--script"] else None

    def _export(self, arg: str) -> str | None:
        return self._paths(arg.split()[1:], "writes")

    def _resume(self, arg: str) -> str | None:
        return self._paths([w for w in arg.split() if w != "--fresh"], "reads")

    def _reindex(self, arg: str) -> str | None:
        spec = arg.strip()
        if not spec or spec in ("hash", "static") or spec.startswith("ollama:"):   # static: weights in a package
            return None
        return f"the embedder {spec[:40]!r} loads a model from disk or the network"

    # -- helpers -------------------------------------------------------------------------

    @staticmethod
    def _words(arg: str) -> list[str] | None:
        try:
            return shlex.split(arg)
        except ValueError:
            return None

    def _paths(self, names: list[str], verb: str, *, existing: bool = False) -> str | None:
        """Why not, when a name leads outside the scratch directory (or, with `existing`, names
        no file written there so far: the recording read it from elsewhere)."""
        for name in names:
            shown = name if len(name) <= 60 else name[:57] + "…"
            if name and not self.inside(name):
                return f"{verb} {shown!r}, outside the replay's scratch directory"
            if name and existing and not (self.scratch / Path(name).expanduser()).exists():
                return f"{verb} {shown!r}, a file from outside the replay's scratch directory"
        return None

    def inside(self, name: str) -> bool:
        """Whether a file name, taken relative to the scratch directory, stays inside it (links resolved)."""
        try:
            path = Path(name).expanduser()
            resolved = (self.scratch / path).resolve()
        except (OSError, RuntimeError, ValueError):   # ~nosuchuser, a NUL, a loop of links
            return False
        return resolved == self.scratch or self.scratch in resolved.parents
