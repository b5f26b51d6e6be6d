"""One command's run: its id, settings, event sink, cancel flag, policy hints and model client,
in one frozen object that the shell builds per command and hands to the handler and reasoners;
`stop` is what may stop its reasoning (cancel, query deadline, fact cap) as one value.

A run's settings and model client never change once it is made (a policy that steers a run
gives it other settings; it does not swap them on the shell). Nothing here knows a front-end.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from sym.core.errors import UserError
from sym.core.events import Emit, Progress, TraceNode, ignore
from sym.core.llm.backends import make_backend
from sym.core.llm.facade import LLM
from sym.core.settings import Settings
from sym.core.stop import Stop, check

if TYPE_CHECKING:
    from sym.core.llm.facade import LLM

NO_MODEL_HINT = "start Ollama and /set model NAME, or use templated sentences"


def own_client(run: Run) -> LLM:
    """A model client of its own for `run`: the backend its settings name (library use; a shell
    builds clients that share one backend, call log and counters: core.llm.clients)."""
    return LLM(make_backend(run.settings), run.settings, run.emit, run.stop)


ModelClient = Callable[["Run"], "LLM"]


@dataclass(frozen=True, eq=False)
class Run:
    """What one command runs with. `name` is the run's id, or with `numbers` its prefix: the id is
    then "NAME-N", N drawn on first use (a shell numbers only the runs that show an id). `client`
    builds the model client, once, on first use of `llm`; None means no model is configured.
    `hints` are what the workspace's policies set for the reasoner (prompter, mode, …); `source`
    labels what the run stores (typed, or SCRIPT:LINE)."""

    settings: Settings = field(default_factory=Settings)
    name: str = "run"
    emit: Emit = ignore
    cancel: threading.Event = field(default_factory=threading.Event)
    hints: Mapping[str, Any] = field(default_factory=dict)
    source: str = "typed"
    client: ModelClient | None = own_client
    numbers: Callable[[], int] | None = None
    _once: dict[str, Any] = field(default_factory=dict, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    @classmethod
    def using(cls, llm: LLM | None, name: str = "run", **fields: Any) -> Run:
        """A run around a model client made elsewhere (a benchmark's), or with no model (None)."""
        settings = fields.pop("settings", None) or (llm.settings if llm is not None else Settings())
        return cls(settings, name, client=(lambda _run: llm) if llm is not None else None, **fields)

    @property
    def id(self) -> str:
        """The run id trace events and policy logs carry, e.g. "ask-3"."""
        if self.numbers is None:
            return self.name
        with self._lock:
            if "id" not in self._once:
                self._once["id"] = f"{self.name}-{self.numbers()}"
            return str(self._once["id"])

    @property
    def has_model(self) -> bool:
        return self.client is not None

    @property
    def llm(self) -> LLM:
        """The model client built for exactly this run's settings (the same one every time);
        UserError when no model is configured."""
        if self.client is None:
            raise UserError("this needs a language model, and none is configured", hint=NO_MODEL_HINT)
        with self._lock:
            if "llm" not in self._once:
                self._once["llm"] = self.client(self)
            llm: LLM = self._once["llm"]
            return llm

    @property
    def cancelled(self) -> bool:
        """Whether the user asked to stop (the flag stays set: `check` clears it)."""
        return self.cancel.is_set()

    @property
    def stop(self) -> Stop:
        """What stops this run's work: its cancel flag, a deadline of settings.query_timeout seconds
        per query, inference or proof tree, settings.proof_timeout per solver check and
        settings.math_timeout per algebra step, and settings.max_facts."""
        s = self.settings
        return Stop(self.cancel, s.query_timeout, s.max_facts, s.proof_timeout, s.math_timeout)

    def check(self) -> None:
        """Raise Cancelled when the user asked to stop the run."""
        check(self.cancel)

    def trace(self, node: str, parent: str | None, kind: str, label: str, detail: str = "", status: str = "") -> None:
        """Emit one node of this run's reasoning trace."""
        self.emit(TraceNode(self.id, node, parent, kind, label, detail, status))

    def sample(self, llm: Any, emit: Emit) -> Run:
        """This run as one sample drawn on a thread of its own sees it: the same settings, id,
        cancel flag and hints, with the sample's model client (`llm`, lockstep.SampleClient) and
        its own `emit` (events handed to the calling thread). Its name is this run's id, with no
        numbers: it and any copy of it carry that id and draw no number of their own."""
        return replace(self, name=self.id, numbers=None, emit=emit, client=lambda _run: llm)

    def progress(self, task: str) -> Callable[[int, int], None]:
        """A callback (done, total) that emits Progress events for long work."""
        return lambda done, total: self.emit(Progress(task, done, total))
