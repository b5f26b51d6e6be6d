"""One way to the Ollama server: the chat backend, the embedder and the status line's ping resolve
the host alike, and a server that is down is exit code 3 wherever it is met."""

from __future__ import annotations

import socket

import pytest

from sym.core.errors import UserError
from sym.core.llm.backends import liveness_url
from sym.core.llm.ollama_backend import OllamaBackend
from sym.core.memory.embedders import make_embedder
from sym.core.settings import Settings


def dead_url() -> str:
    with socket.socket() as probe:   # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"


@pytest.mark.parametrize("configured, url", [("gpu", "http://gpu:11434"), ("gpu:8080", "http://gpu:8080"),
                                             ("https://box/ollama/", "https://box/ollama")])
def test_the_backend_the_embedder_and_the_status_line_resolve_a_host_alike(configured, url):
    assert OllamaBackend(configured).host == url
    assert make_embedder("ollama:nomic-embed-text", ollama_host=configured).host == url
    assert liveness_url(Settings(ollama_host=configured)) == url + "/api/version"


def test_an_embedder_whose_server_is_down_exits_3():
    with pytest.raises(UserError) as err:
        make_embedder("ollama:tiny", ollama_host=dead_url()).embed(["hello"])
    assert err.value.exit_code == 3 and "not reachable" in err.value.message


def test_the_bench_with_its_server_down_exits_3():
    from sym.repl.bench import make_llm

    with pytest.raises(UserError) as err:
        make_llm("on", "tiny", dead_url())
    assert err.value.exit_code == 3 and "does not answer" in err.value.message
