"""Running one command line inside a chat turn's job."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sym.core.errors import Cancelled, UserError
from sym.core.llm import LLMError
from sym.repl.results import Failure, Result
from sym.repl.route import route

if TYPE_CHECKING:
    from sym.repl.context import Context


def run_line(ctx: Context, line: str, source: str) -> tuple[str, Result]:
    """Run one command line inside the current job, as the shell would (its own run, the same
    cancel flag and events); a user error becomes a Failure; a cancel stops the whole turn."""
    from sym.repl.dispatcher import one_line

    name, arg = route(line)
    try:
        cmd = ctx.registry.lookup(name)
        return cmd.name, cmd.call(ctx, arg, ctx.start_run(cmd.name.lstrip("/"), source=source))
    except Cancelled:
        raise
    except LLMError as err:
        if err.reason == "cancelled":
            raise
        return name, Failure(one_line(err.message), err.hint and one_line(err.hint), err.exit_code)
    except UserError as err:
        return name, Failure(one_line(err.message), err.hint and one_line(err.hint), err.exit_code)
