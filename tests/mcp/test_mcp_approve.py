"""`sym mcp --approve elicit`: a change is shown to the client's user in sym's words before it is made;
declined, memory stays as it was; accepted, it is stored. Through the SDK's client in legacy mode
(an elicitation/create request) and 2026-07-28 mode (an InputRequiredResult the client retries);
a client that cannot elicit is not asked.
"""

from __future__ import annotations

import mcp_types as types
import pytest

from tests.mcp.clients import Agent


class User:
    """An elicitation callback that answers `action` and keeps what it was shown."""

    def __init__(self, action: str):
        self.action, self.shown = action, []

    async def __call__(self, context, params) -> types.ElicitResult:
        self.shown.append(params.message)
        return types.ElicitResult(action=self.action, content={} if self.action == "accept" else None)


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_a_declined_change_leaves_memory_as_it_was_and_an_accepted_one_is_stored(sym_exe, tmp_path, mode):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text("")
    command = [*sym_exe, "mcp", "--memory", "approve", "--approve", "elicit"]
    no = User("decline")
    with Agent(command, mode=mode, cwd=tmp_path, home=home, elicit=no) as agent:
        declined = agent.call("fact", clauses="secret(gold).")
        assert declined.is_error and declined.structured_content["error"] == "declined: memory is unchanged"
        assert no.shown and "store these facts" in no.shown[0] and "/fact secret(gold)." in no.shown[0]
        assert agent.call("listing").structured_content["items"] == []
        assert not agent.call("query", goal="p(X)").structured_content["ok"]    # a read is never asked about
        assert len(no.shown) == 1
    yes = User("accept")
    with Agent(command, mode=mode, cwd=tmp_path, home=home, elicit=yes) as agent:
        stored = agent.call("fact", clauses="gift(gold).")
        assert not stored.is_error and [a["text"] for a in stored.structured_content["added"]] == ["gift(gold)."]
        forgotten = agent.call("forget", items="gift(gold)")
        assert not forgotten.is_error and "forget these items" in yes.shown[-1]
        assert len(yes.shown) == 2


def test_a_client_that_cannot_elicit_relies_on_the_hosts_confirmation(sym_exe, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text("")
    with Agent([*sym_exe, "mcp", "--approve", "elicit"], cwd=tmp_path, home=home) as agent:
        assert not agent.call("fact", clauses="p(a).").is_error
        assert agent.call("query", goal="p(X)").structured_content["bindings"] == [{"X": "a"}]
