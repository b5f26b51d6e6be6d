"""Shells for the agent's tests: one whose chat turns the menu routes (as a small model's are)."""

from __future__ import annotations

import pytest


@pytest.fixture
def routed(llm_sym):
    """`llm_sym` whose chat turns go by the menu (agent.style route): the model sorts the
    sentences, sym writes each command."""
    assert llm_sym("/set agent.style route").ok
    return llm_sym


@pytest.fixture
def routed_auto(routed):
    """`routed`, with the changes the model proposes made without asking (agent.approve auto)."""
    assert routed("/set agent.approve auto").ok
    return routed
