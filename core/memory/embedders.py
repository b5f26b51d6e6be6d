"""Text embedders, chosen explicitly and recorded by name in each collection's metadata.

`hash` is built in (deterministic, offline, lexical); `static` is a semantic model whose weights
ship inside a PyPI package (the default for new workspaces); `ollama:MODEL` and `st:NAME_OR_PATH`
call a local model. Nothing here downloads anything, and heavy packages load only on use.
"""

from __future__ import annotations

import gc
import importlib.util
import math
import re
from collections.abc import Sequence
from typing import Any, Protocol
from zlib import crc32

from sym.core.errors import UserError
from sym.core.llm import LLMError
from sym.core.llm.ollama_backend import OllamaBackend

SPECS = "static, hash, hash:DIM, ollama:MODEL or st:NAME_OR_PATH"
STATIC_MODULE, STATIC_PACKAGE = "static_model", "tokenlearn-static-model"


class Embedder(Protocol):
    name: str  # recorded in collection metadata; same name, same vectors

    def embed(self, texts: list[str]) -> list[list[float]]: ...


# -- hash ----------------------------------------------------------------------------

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORD = re.compile(r"[^\W_]+")
# Seeds keep the three feature kinds apart (the word "fat" is not the 3-gram "fat").
_SEED_WORD, _SEED_BIGRAM, _SEED_CHAR = 0x5157, 0xB16A, 0xC4A3
# Whole words say most about meaning; 3-grams only tie spellings together (fatherof ~ father_of).
WORD_WEIGHT, BIGRAM_WEIGHT, CHAR_WEIGHT = 1.0, 0.6, 0.5
_CACHE_LIMIT = 200_000
# Function words and one-letter words (rule variables) say little about what a text is about:
# they keep a small weight of their own and contribute no 3-grams.
STOPWORDS = frozenset("""a an the of in at on to is are was were be been who what which whom whose
does do did has have had it its this that these those and or for with by as from if then not""".split())
STOPWORD_WEIGHT = 0.15


def words_of(text: str) -> list[str]:
    """Lower-case words; `_`, punctuation and camelCase boundaries separate them."""
    if not text.islower():
        text = _CAMEL.sub(" ", text)
    return _WORD.findall(text.lower())


class HashEmbedder:
    """Feature hashing of word unigrams, word bigrams and character 3-grams, L2-normalised.

    Uses crc32 (not `hash()`, which is salted per process), so vectors are the same in every
    process and on every machine."""

    def __init__(self, dim: int = 256) -> None:
        if not isinstance(dim, int) or isinstance(dim, bool) or not 8 <= dim <= 1 << 20:
            raise UserError(f"hash embedder dimension must be an integer from 8 to {1 << 20}, not {dim!r}",
                            hint="e.g. --embedder hash:512")
        self.dim = dim
        self.name = "hash" if dim == 256 else f"hash:{dim}"
        self._words: dict[str, tuple[tuple[int, float], ...]] = {}   # word -> ((bucket, signed weight), …) incl. its 3-grams
        self._grams: dict[str, tuple[int, float]] = {}

    def _feature(self, text: str, seed: int, weight: float) -> tuple[int, float]:
        h = crc32(text.encode("utf-8", "surrogatepass"), seed)
        return h % self.dim, (-weight if h & 0x80000000 else weight)

    def _word_features(self, word: str) -> tuple[tuple[int, float], ...]:
        """The word's own features, merged by bucket: the word and its space-padded 3-grams (cached)."""
        if word in STOPWORDS or len(word) == 1:
            only: tuple[tuple[int, float], ...] = (self._feature(word, _SEED_WORD, STOPWORD_WEIGHT),)
            self._words[word] = only
            return only
        i, x = self._feature(word, _SEED_WORD, WORD_WEIGHT)
        merged = {i: x}
        get, gget, gram_of, padded = merged.get, self._grams.get, self._gram, f" {word} "
        for k in range(len(padded) - 2):
            i, x = gget(padded[k:k + 3]) or gram_of(padded[k:k + 3])
            merged[i] = get(i, 0.0) + x
        if len(self._words) >= _CACHE_LIMIT:  # one-off words (ids like p4567) must not pile up
            self._words.clear()
        self._words[word] = got = tuple(merged.items())
        return got

    def _gram(self, gram: str) -> tuple[int, float]:
        got = self._grams.get(gram)
        if got is None:
            if len(self._grams) >= _CACHE_LIMIT:  # only scripts with many letters get here
                self._grams.clear()
            self._grams[gram] = got = self._feature(gram, _SEED_CHAR, CHAR_WEIGHT)
        return got

    def embed(self, texts: list[str]) -> list[list[float]]:
        # Many fresh lists would set off the cycle collector again and again (half the
        # time at 100k texts); they hold only floats, so none can be part of a cycle.
        if len(texts) < 1000:
            return self._embed(texts)
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            return self._embed(texts)
        finally:
            if was_enabled:
                gc.enable()

    def _embed(self, texts: list[str]) -> list[list[float]]:
        dim, wcache, gcache = self.dim, self._words, self._grams
        word_features, gram_of, feature = self._word_features, self._gram, self._feature
        camel_sub, find_words, sqrt = _CAMEL.sub, _WORD.findall, math.sqrt
        out: list[list[float]] = []
        append = out.append
        for text in texts:
            words = find_words((text if text.islower() else camel_sub(" ", text)).lower())
            if not words:
                append([0.0] * dim)
                continue
            acc = dict(wcache.get(words[0]) or word_features(words[0]))
            if len(words) > 1:
                get = acc.get
                for w in words[1:]:
                    for i, x in wcache.get(w) or word_features(w):
                        acc[i] = get(i, 0.0) + x
                # Bigrams, and the 3-grams that span a word boundary once the words are run
                # together: with the words' own 3-grams these are the 3-grams of `fatherof`.
                joined = "".join(words)
                end, last, b = len(joined), -1, 0
                for k in range(len(words) - 1):
                    i, x = feature(f"{words[k]} {words[k + 1]}", _SEED_BIGRAM, BIGRAM_WEIGHT)
                    acc[i] = get(i, 0.0) + x
                    b += len(words[k])
                    for p in (b - 2, b - 1):
                        if p > last and p >= 0 and p + 3 <= end:
                            last = p
                            i, x = gcache.get(joined[p:p + 3]) or gram_of(joined[p:p + 3])
                            acc[i] = get(i, 0.0) + x
            norm = sqrt(sum([x * x for x in acc.values()]))
            vec = [0.0] * dim
            if norm > 0.0:
                inv = 1.0 / norm
                for i, x in acc.items():
                    vec[i] = x * inv
            append(vec)
        return out


# -- ollama --------------------------------------------------------------------------

def _one_line(text: str, limit: int = 200) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


class OllamaEmbedder:
    """Embeddings from an Ollama server's /api/embed (e.g. `nomic-embed-text`), through the chat
    backend's client (core.llm.ollama_backend): one host resolution, one connection pool, no proxy
    for a local server, one deadline per call."""

    def __init__(self, model: str, host: str | None = None, *, timeout: float = 120.0) -> None:
        if not model.strip():
            raise UserError("ollama embedder needs a model name", hint="e.g. ollama:nomic-embed-text")
        self.backend = OllamaBackend(host, timeout=timeout)
        self.model, self.host, self.timeout = model.strip(), self.backend.host, timeout
        self.name = f"ollama:{self.model}"

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        import httpx
        import ollama

        from sym.core.llm.deadline import within

        try:
            with within(self.timeout):
                response = self.backend.client().embed(model=self.model, input=texts)
        except ollama.ResponseError as err:
            raise self._refused(getattr(err, "status_code", 0), getattr(err, "error", str(err))) from None
        except (httpx.TimeoutException, TimeoutError):
            raise self._timeout() from None
        except (ConnectionError, httpx.TransportError) as err:
            raise self._unreachable(err) from None
        except ValueError:  # the client's JSON or pydantic check refused the answer
            raise self._malformed() from None
        vectors = response.get("embeddings") if isinstance(response, dict) else getattr(response, "embeddings", None)
        return self._checked(vectors, len(texts))

    def _checked(self, vectors: object, expected: int) -> list[list[float]]:
        number = (int, float)
        if not (isinstance(vectors, list) and len(vectors) == expected and all(
                isinstance(v, list) and v and all(type(x) in number for x in v) for v in vectors)
                and len({len(v) for v in vectors}) == 1):
            raise self._malformed(expected)
        return [[float(x) for x in v] for v in vectors]

    def _malformed(self, expected: int | None = None) -> UserError:
        wanted = f" (expected {expected} vectors)" if expected is not None else ""
        return UserError(f"malformed embeddings from Ollama model {self.model!r}{wanted}",
                         hint=f"is {self.model!r} an embedding model? try ollama:nomic-embed-text")

    def _refused(self, status: int, detail: str) -> UserError:
        detail = _one_line(detail)
        low = detail.lower()
        if "not found" in low and "model" in low:  # Ollama: model "x" not found, try pulling it first
            return UserError(f"Ollama model {self.model!r} not found on {self.host}",
                             hint=f"run: ollama pull {self.model}")
        if status == 404:  # no Ollama error in the body: not Ollama, or one without /api/embed
            return UserError(f"no Ollama embed API at {self.host} (HTTP 404{': ' + detail if detail else ''})",
                             hint="check OLLAMA_HOST; Ollama older than 0.3 lacks /api/embed, upgrade it")
        hint = "shorten the text or use a model with a longer context" if "context" in low \
            else "see the Ollama server log"
        return UserError(f"Ollama embed failed (HTTP {status}): {detail or 'no details'}", hint=hint)

    def _timeout(self) -> UserError:
        return UserError(f"Ollama at {self.host} did not answer within {self.timeout:g} s",
                         hint="the model may still be loading; try again, or embed fewer texts at once")

    def _unreachable(self, reason: object) -> UserError:
        return LLMError(f"Ollama server not reachable at {self.host} ({_one_line(str(reason), 80)})",
                        reason="unreachable", exit_code=3,      # a server that is down exits 3, as for chat
                        hint="is `ollama serve` running? set OLLAMA_HOST if it listens elsewhere")


# -- sentence-transformers ------------------------------------------------------------

def _st_missing() -> UserError:
    return UserError("sentence-transformers is not installed", hint="pip install 'sym-shell[st]'")


class SentenceTransformerEmbedder:
    """A local sentence-transformers model (by name in the local cache, or by path); never downloads."""

    def __init__(self, name_or_path: str, *, device: str | None = None) -> None:
        if not name_or_path.strip():
            raise UserError("st embedder needs a model name or path", hint="e.g. st:all-MiniLM-L6-v2")
        if importlib.util.find_spec("sentence_transformers") is None:
            raise _st_missing()
        self.name_or_path, self.device = name_or_path.strip(), device
        self.name = f"st:{self.name_or_path}"
        self._model: Any = None   # a SentenceTransformer, loaded on the first embed

    def _load(self) -> Any:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise _st_missing() from None
        try:  # local_files_only (sentence-transformers >= 2.3): a missing model fails, never downloads
            return SentenceTransformer(self.name_or_path, device=self.device, local_files_only=True)
        except Exception as err:
            raise UserError(f"sentence-transformers model {self.name_or_path!r} is not available locally "
                            f"({_one_line(str(err), 80)})",
                            hint="give a local path, or download the model once outside sym") from None

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        if self._model is None:
            self._model = self._load()
        return [[float(x) for x in v] for v in self._model.encode(list(texts), convert_to_numpy=True)]


# -- static: weights from a package ----------------------------------------------------

class StaticEmbedder:
    """A static (model2vec / tokenlearn) sentence embedding whose weights ship inside the
    `tokenlearn-static-model` wheel: 64 dimensions, token vectors pooled in Rust, no torch,
    nothing downloaded. It knows that "automobile" is near "car", which `hash` cannot; loading
    its tokenizer costs about a second, once per process, on the first text embedded."""

    name = "static"

    def __init__(self) -> None:
        if not static_available():
            raise UserError(f"the static embedder needs the {STATIC_PACKAGE} package",
                            hint=f"pip install {STATIC_PACKAGE} (sym-shell depends on it), or use --embedder hash")

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        from static_model import get_embeddings

        try:
            vectors = get_embeddings([str(t) for t in texts])
        except (OSError, ValueError, RuntimeError) as err:   # damaged package files
            raise UserError(f"the static embedder failed: {_one_line(str(err), 120)}",
                            hint=f"reinstall {STATIC_PACKAGE}, or /reindex hash") from None
        return [[float(x) for x in v] for v in vectors]


def static_available() -> bool:
    return importlib.util.find_spec(STATIC_MODULE) is not None


def default_embedder() -> str:
    """The embedder a new workspace gets: `static` when its package is installed, else `hash`."""
    return "static" if static_available() else "hash"


# -- choosing one ----------------------------------------------------------------------

def make_embedder(spec: str, *, ollama_host: str | None = None) -> Embedder:
    """`static`, `hash`, `hash:DIM`, `ollama:MODEL` or `st:NAME_OR_PATH` -> an embedder."""
    kind, sep, arg = (spec or "").strip().partition(":")
    kind = kind.lower()
    if kind == "static" and not sep:
        return StaticEmbedder()
    if kind == "hash":
        if not sep:
            return HashEmbedder()
        if not arg.strip().isdecimal():
            raise UserError(f"bad embedder {spec!r}: the hash dimension must be a number", hint="e.g. hash:512")
        return HashEmbedder(int(arg))
    if kind == "ollama" and sep:
        return OllamaEmbedder(arg, ollama_host)
    if kind == "st" and sep:
        return SentenceTransformerEmbedder(arg)
    raise UserError(f"unknown embedder {spec!r}", hint=f"use {SPECS}")


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors; 0.0 when either is all zeros."""
    if len(a) != len(b):
        raise UserError(f"cannot compare vectors of different dimensions ({len(a)} and {len(b)})",
                        hint="vectors from different embedders do not mix; /reindex with one embedder")
    dot = sum([x * y for x, y in zip(a, b)])
    na = math.sqrt(sum([x * x for x in a]))
    nb = math.sqrt(sum([y * y for y in b]))
    if na == 0.0 or nb == 0.0:
        return 0.0
    return max(-1.0, min(1.0, dot / (na * nb)))
