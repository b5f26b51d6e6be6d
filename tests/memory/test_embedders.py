"""Embedders: the built-in hash embedder, Ollama over real HTTP, and choosing one by name."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import socket
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from sym.core.errors import UserError
from sym.core.memory.embedders import HashEmbedder, OllamaEmbedder, SentenceTransformerEmbedder, cosine, make_embedder

TEXTS = ["parent(p123, p4567).", "Bob is big.", "father_of(joshua, don)", "The cow sees the bald eagle."]


# -- hash ----------------------------------------------------------------------------

def test_two_fresh_hash_embedders_give_identical_vectors():
    assert HashEmbedder().embed(TEXTS) == HashEmbedder().embed(TEXTS)


def test_hash_vectors_do_not_depend_on_the_process_or_its_hash_seed():
    script = ("import json, sys; from core.memory.embedders import HashEmbedder; "
              "print(json.dumps(HashEmbedder().embed(json.loads(sys.argv[1]))))")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run([sys.executable, "-c", script, json.dumps(TEXTS)], env=env,
                          capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == HashEmbedder().embed(TEXTS)


def test_hash_vectors_have_the_dimension_and_unit_length():
    for vector in HashEmbedder().embed(TEXTS):
        assert len(vector) == 256
        assert math.isclose(math.sqrt(sum(x * x for x in vector)), 1.0, rel_tol=1e-9)
    (wide,) = HashEmbedder(512).embed(["Bob is big."])
    assert len(wide) == 512


def test_text_without_words_gives_a_zero_vector():
    empty, punctuation = HashEmbedder().embed(["", " ,.;() "])
    assert empty == [0.0] * 256 and punctuation == [0.0] * 256
    assert cosine(empty, HashEmbedder().embed(["Bob"])[0]) == 0.0


def test_underscores_and_camel_case_separate_words():
    snake, camel, spaced = HashEmbedder().embed(["father_of", "fatherOf", "father of"])
    assert snake == camel == spaced


def test_similar_texts_are_closer_than_unrelated_ones():
    e = HashEmbedder()
    (big, bigger, eagle, fact, fact2, other, glued, snake, dull) = e.embed([
        "Bob is big.", "Bob is big and red.", "The cow sees the bald eagle.",
        "parent(ann, bob).", "parent(ann, carl).", "likes(dave, erin).",
        "fatherof", "father_of", "big"])
    assert cosine(big, bigger) > 0.5 > cosine(big, eagle)
    assert cosine(fact, fact2) > 0.5 > cosine(fact, other)
    assert cosine(glued, snake) > 0.25 > cosine(glued, dull)


def test_hash_embedder_rejects_a_silly_dimension():
    with pytest.raises(UserError, match="dimension"):
        HashEmbedder(0)


def test_cosine_of_vectors_of_different_sizes_is_a_user_error():
    assert cosine([1.0, 0.0], [2.0, 0.0]) == pytest.approx(1.0)
    assert cosine([1.0, 0.0], [0.0, 3.0]) == 0.0
    with pytest.raises(UserError, match="different dimensions"):
        cosine([1.0, 0.0], [1.0, 0.0, 0.0])


# -- choosing one by name ----------------------------------------------------------

def test_make_embedder_reads_each_form(monkeypatch):
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    assert make_embedder("hash").name == "hash"
    wide = make_embedder("hash:512")
    assert (wide.name, wide.dim) == ("hash:512", 512)
    assert make_embedder("hash:256").name == "hash"  # same vectors, same name
    ollama = make_embedder("ollama:nomic-embed-text:latest")
    assert (ollama.name, ollama.host) == ("ollama:nomic-embed-text:latest", "http://127.0.0.1:11434")
    assert make_embedder("ollama:m", ollama_host="http://gpu-box:11434").host == "http://gpu-box:11434"
    monkeypatch.setenv("OLLAMA_HOST", "10.0.0.5")
    assert make_embedder("ollama:m").host == "http://10.0.0.5:11434"


@pytest.mark.parametrize("spec", ["", "bert", "openai:text-embedding-3", "ollama", "st"])
def test_make_embedder_names_the_valid_forms_for_anything_else(spec):
    with pytest.raises(UserError) as err:
        make_embedder(spec)
    assert "hash" in str(err.value) and "ollama:MODEL" in str(err.value) and "st:NAME_OR_PATH" in str(err.value)


@pytest.mark.parametrize("spec", ["hash:abc", "hash:", "hash:3", "ollama:", "ollama:  "])
def test_make_embedder_refuses_incomplete_forms(spec):
    with pytest.raises(UserError):
        make_embedder(spec)


# -- sentence-transformers -----------------------------------------------------------

@pytest.mark.skipif(importlib.util.find_spec("sentence_transformers") is not None,
                    reason="sentence-transformers is installed here")
def test_sentence_transformers_missing_says_how_to_install_it():
    with pytest.raises(UserError) as err:
        make_embedder("st:all-MiniLM-L6-v2")
    assert "not installed" in err.value.message
    assert err.value.hint == "pip install 'sym-shell[st]'"
    with pytest.raises(UserError, match="not installed"):
        SentenceTransformerEmbedder("/models/minilm")


# -- ollama over real HTTP -----------------------------------------------------------

class _Ollama(BaseHTTPRequestHandler):
    """Answers /api/embed like Ollama: known models embed, others 404; `stuck` never answers."""

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append((self.path, body))
        model = body.get("model")
        if model == "stuck":
            self.server.release.wait(10)
            return
        if self.path != "/api/embed":  # what Ollama before 0.3, or another server, says
            return self._reply(404, b"404 page not found")
        if model not in ("tiny", "broken"):
            return self._reply(404, {"error": f"model '{model}' not found"})
        if model == "broken":
            return self._reply(200, {"embeddings": "nope"})
        self._reply(200, {"model": model, "embeddings": [[float(len(t)), 1.0, 0.5] for t in body["input"]]})

    def _reply(self, status, payload):
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def ollama_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Ollama)
    server.daemon_threads = True
    server.requests, server.release = [], threading.Event()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server, f"http://127.0.0.1:{server.server_address[1]}"
    server.release.set()
    server.shutdown()
    server.server_close()


def test_ollama_embedder_posts_texts_and_returns_embeddings(ollama_server):
    server, host = ollama_server
    embedder = make_embedder("ollama:tiny", ollama_host=host)
    assert embedder.embed(["ab", "abcd"]) == [[2.0, 1.0, 0.5], [4.0, 1.0, 0.5]]
    assert server.requests == [("/api/embed", {"model": "tiny", "input": ["ab", "abcd"]})]
    assert embedder.embed([]) == []
    assert len(server.requests) == 1


def test_ollama_host_comes_from_the_environment(ollama_server, monkeypatch):
    server, host = ollama_server
    monkeypatch.setenv("OLLAMA_HOST", host.removeprefix("http://"))
    assert OllamaEmbedder("tiny").embed(["abc"]) == [[3.0, 1.0, 0.5]]


def test_ollama_model_not_found_says_to_pull_it(ollama_server):
    _, host = ollama_server
    with pytest.raises(UserError) as err:
        OllamaEmbedder("x", host).embed(["hello"])
    assert "not found" in err.value.message
    assert "ollama pull x" in str(err.value)
    assert "\n" not in str(err.value)


def test_a_server_without_the_embed_api_is_not_mistaken_for_a_missing_model(ollama_server):
    _, host = ollama_server
    with pytest.raises(UserError) as err:
        OllamaEmbedder("tiny", host + "/elsewhere").embed(["hello"])
    assert "no Ollama embed API" in err.value.message
    assert "ollama pull" not in str(err.value)


def test_ollama_not_running_says_the_server_is_not_reachable():
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(UserError) as err:
        OllamaEmbedder("tiny", f"http://127.0.0.1:{port}").embed(["hello"])
    assert "not reachable" in err.value.message
    assert "ollama serve" in err.value.hint


def test_ollama_that_does_not_answer_in_time_is_a_timeout(ollama_server):
    _, host = ollama_server
    with pytest.raises(UserError, match="did not answer within"):
        OllamaEmbedder("stuck", host, timeout=0.3).embed(["hello"])


def test_ollama_malformed_embeddings_are_refused(ollama_server):
    _, host = ollama_server
    with pytest.raises(UserError, match="malformed embeddings"):
        OllamaEmbedder("broken", host).embed(["hello"])
