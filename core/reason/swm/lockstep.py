"""K samples of a reading that takes several model calls (a story read pair by pair, its
converses, restatements, checks; a program written step by step and repaired, pot/steps.py),
drawn together: each sample runs the same reader in a thread of its own, through a client that
asks at the sample's temperature with the sample's seed (core/reason/sampling.py), and whenever
every sample still reading waits on the model, their calls go out at once through
`LLM.chat_many` (in parallel where the server allows), from the calling thread, so the run's
events, the call log and the session see each call as a request of its own and an offline
replay answers every one. A sample that diverges (a repair the others do not need) only makes
its round's batch smaller. A failed call ends every sample and is raised here; so is the
user's cancel.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from sym.core.llm.repair import json_with_repair
from sym.core.reason.sampling import sample_options

if TYPE_CHECKING:
    from sym.core.llm import Message, Reply

T = TypeVar("T")
Until = Callable[[str], bool]        # the reply so far -> is it complete (LLM.chat's `until`)


class Chat(Protocol):
    """What a reader asks of its model: the facade (core/llm/facade.py) or one sample's client."""

    @property
    def settings(self) -> Any: ...

    def chat(self, messages: list[Message], *, purpose: str = "chat", format: dict[str, Any] | str | None = None,
             options: dict[str, Any] | None = None, model: str | None = None) -> Reply: ...

    def chat_many(self, batches: list[list[Message]], *, purpose: str = "chat",
                  format: dict[str, Any] | str | None = None,
                  options: dict[str, Any] | list[dict[str, Any]] | None = None,
                  model: str | None = None, until: Until | list[Until | None] | None = None) -> list[Reply]: ...


@dataclass
class _Ask:
    batches: list[list[Message]]
    purpose: str
    format: dict[str, Any] | str | None
    options: list[dict[str, Any]]
    until: list[Until | None]                       # one stop test per batch, as `options`
    model: str | None = None                        # None: the settings' model
    replies: list[Reply] | None = None
    error: BaseException | None = None


@dataclass
class _Board:
    """The samples' pending calls, guarded by one condition."""

    cv: threading.Condition = field(default_factory=threading.Condition)
    asks: dict[int, _Ask] = field(default_factory=dict)
    done: set[int] = field(default_factory=set)
    failed: BaseException | None = None


class SampleClient:
    """Sample n's model: its calls carry the sample's temperature and seed (a call's own options,
    a repair's temperature, go on top; the seed stays the sample's) and wait for the round."""

    def __init__(self, llm: Chat, board: _Board, n: int, options: dict[str, Any]) -> None:
        self._llm, self._board, self.n, self._options = llm, board, n, options

    @property
    def settings(self) -> Any:
        return self._llm.settings

    def _opts(self, own: dict[str, Any] | None) -> dict[str, Any]:
        return {**self._options, **(own or {}), "seed": self._options["seed"]}

    def chat(self, messages: list[Message], *, purpose: str = "chat", format: dict[str, Any] | str | None = None,
             options: dict[str, Any] | None = None, model: str | None = None) -> Reply:
        return self._wait(_Ask([messages], purpose, format, [self._opts(options)], [None], model))[0]

    def chat_many(self, batches: list[list[Message]], *, purpose: str = "chat",
                  format: dict[str, Any] | str | None = None,
                  options: dict[str, Any] | list[dict[str, Any]] | None = None,
                  model: str | None = None, until: Until | list[Until | None] | None = None) -> list[Reply]:
        if not batches:
            return []
        own = options if isinstance(options, list) else [options or {}] * len(batches)
        ends = until if isinstance(until, list) else [until] * len(batches)
        return self._wait(_Ask(list(batches), purpose, format, [self._opts(o) for o in own], ends, model))

    def _chat(self, messages: list[Message], purpose: str, format: dict[str, Any] | str | None,
              options: dict[str, Any] | None, model: str | None = None, event: object = None,
              until: Until | None = None) -> Reply:
        """One call as core/llm/repair.py makes it (the facade's `_chat`), waiting for the round."""
        return self._wait(_Ask([messages], purpose, format, [self._opts(options)], [until], model))[0]

    def json_with_repair(self, messages: list[Message], schema: Any, **how: Any) -> Any:
        """LLM.json_with_repair for this sample: its first call and each repair wait for the round."""
        return json_with_repair(self, messages, schema, **how)    # type: ignore[arg-type]

    def _wait(self, ask: _Ask) -> list[Reply]:
        board = self._board
        with board.cv:
            if board.failed is not None:
                raise board.failed
            board.asks[self.n] = ask
            board.cv.notify_all()
            board.cv.wait_for(lambda: ask.replies is not None or ask.error is not None)
        if ask.error is not None:
            raise ask.error
        assert ask.replies is not None
        return ask.replies


def draw(llm: Chat, numbers: list[int], read: Callable[[SampleClient], T], *, temperature: float,
         between: Callable[[], object] | None = None) -> list[T]:
    """`read` run once for each sample number n in `numbers` (1-based), through its own client
    (seed SAMPLE_SEED + n); what each returned, in the order of `numbers`. Every call is sent
    from this thread, a round at a time; `between()` runs here whenever every sample waits or
    is done (before each round and at the end): what the samples left to do on this thread."""
    board = _Board()
    results: dict[int, T] = {}
    errors: dict[int, BaseException] = {}
    options = sample_options(temperature, max(numbers, default=1))
    k = len(numbers)

    def work(n: int) -> None:
        try:
            results[n] = read(SampleClient(llm, board, n, options[n - 1]))
        except BaseException as err:          # handed to the calling thread, raised there
            errors[n] = err
        finally:
            with board.cv:
                board.done.add(n)
                board.cv.notify_all()

    threads = [threading.Thread(target=work, args=(n,), name=f"sample-{n}", daemon=True) for n in numbers]
    for t in threads:
        t.start()
    try:
        while True:
            with board.cv:
                board.cv.wait_for(lambda: all(n in board.asks or n in board.done for n in numbers))
                if between is not None:
                    between()
                if len(board.done) == k:
                    break
                round_ = sorted(board.asks.items())
                board.asks.clear()
            _send(llm, [ask for _n, ask in round_], board)
    finally:
        with board.cv:                    # whatever ended the loop, no sample waits for ever
            board.failed = board.failed or (None if len(board.done) == k else RuntimeError("sampling stopped"))
            for ask in board.asks.values():
                ask.error = board.failed
            board.cv.notify_all()
        for t in threads:
            t.join()
    if board.failed is not None:
        raise board.failed
    if errors:
        raise errors[min(errors)]
    return [results[n] for n in numbers]


def _send(llm: Chat, asks: list[_Ask], board: _Board) -> None:
    """One round: the asks grouped by purpose, format and model (one chat_many each, each call
    with its own stop test), replies handed back."""
    groups: dict[tuple[str, str, str | None], list[_Ask]] = {}
    for ask in asks:
        groups.setdefault((ask.purpose, json.dumps(ask.format, sort_keys=True), ask.model), []).append(ask)
    for group in groups.values():
        first = group[0]
        try:
            replies = llm.chat_many([b for ask in group for b in ask.batches], purpose=first.purpose,
                                    format=first.format, options=[o for ask in group for o in ask.options],
                                    model=first.model, until=[u for ask in group for u in ask.until])
        except BaseException as err:
            with board.cv:
                board.failed = err
                for ask in asks:
                    if ask.replies is None:
                        ask.error = err
                board.cv.notify_all()
            raise
        at = 0
        with board.cv:
            for ask in group:
                ask.replies = replies[at:at + len(ask.batches)]
                at += len(ask.batches)
            board.cv.notify_all()
