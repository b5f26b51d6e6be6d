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
    """An elicitation callback that answers `action` (or each of `then` in turn, then `action`) and
    keeps what it was shown."""

    def __init__(self, action: str, *then: str):
        self.action, self.then, self.shown = action, list(then), []

    async def __call__(self, context, params) -> types.ElicitResult:
        self.shown.append(params.message)
        action = self.then.pop(0) if self.then else self.action
        return types.ElicitResult(action=action, content={} if action == "accept" else None)


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


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_a_declined_clashing_change_names_the_clash_and_changes_nothing(sym_exe, tmp_path, mode):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text("")
    user = User("decline", "accept", "accept")
    with Agent([*sym_exe, "mcp", "--approve", "elicit"], mode=mode, cwd=tmp_path, home=home, elicit=user) as agent:
        assert not agent.call("fact", clauses="~tall(bob). small(ann).").is_error
        assert not agent.call("rule", rule=":- tall(X), small(X).").is_error
        assert not any("clash" in shown for shown in user.shown)
        before = agent.call("listing").structured_content["items"]
        declined = agent.call("fact", clauses="tall(bob). tall(ann). tall(cy).")
        assert declined.is_error and declined.structured_content["error"] == "declined: memory is unchanged"
        asked = user.shown[-1]
        assert "/fact tall(bob). tall(ann). tall(cy)." in asked
        assert "it would clash: tall(bob) and ~tall(bob)" in asked and "'~tall(bob).'" in asked
        assert "(and 1 more)" in asked          # the constraint tall(ann) and small(ann) break
        assert agent.call("tell", text="Bob is tall.").is_error         # English, as the grammar reads it
        assert "it would clash: tall(bob) and ~tall(bob)" in user.shown[-1] and "Bob is tall." in user.shown[-1]
        assert agent.call("listing").structured_content["items"] == before
        assert agent.call("check").structured_content["ok"]
        assert agent.call("query", goal="tall(X)").structured_content["bindings"] == []
