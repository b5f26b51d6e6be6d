"""Document retrieval: keyword (BM25), meaning (embedder) and hybrid (RRF) side by side.

    python benchmarks/retrieval_bench.py                    # the workspace default embedder (static)
    python benchmarks/retrieval_bench.py --embedder hash --json

Corpus: the Python Language Reference as CPython ships it for `help()` — the 79 topics of the
standard library's `pydoc_data.topics` (about 465,000 characters; written by the Python docs
authors, not by this project), each saved as TOPIC.txt and loaded with `/load FOLDER`'s library
call into a fresh workspace, so passages are cut exactly as a user's would be. Questions were
written for this benchmark from the corpus: exact-term queries use words copied from the
passage (identifiers, rare phrases); paraphrase queries say what the passage says in other
words. A question's gold passages are those holding its phrase (one of them in its topic). Reported per query
set and ranking: recall@5 (a gold passage among the first five), MRR@10 and milliseconds per
query. Nothing here is part of the test run.

Then the cost of `/search` (issue 49): `library.search` as the command calls it (k = 5, every
kind) against a raw chromadb query of the same passages (the workspace's own collection:
embed the question with the same embedder, `collection.query(n_results=5)` with chromadb's
default include), interleaved query by query, medians of CPU and wall milliseconds and their
ratio. And the proof that reading the rankings only as deep as k needs changes no hit: every
question's hits at k = 5 and 10 against the same search reading both rankings to the full depth
(50, as before), compared as lists of ids in order.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

# (query, topic, phrase): the gold passages are those that hold the phrase (topic.txt holds one)
EXACT = [
    ("AssertionError __debug__", "assert", "if not expression: raise AssertionError"),
    ("asynchronous context manager", "async", "An *asynchronous context manager* is a *context manager*"),
    ("augmented assignment target", "augassign", "An augmented assignment evaluates the target"),
    ("loop control target", "break", "the loop control target keeps its current value"),
    ("termination model of error handling", "exceptions", "model of error handling"),
    ("nonlocal statement", "nonlocal", 'The "nonlocal" statement causes the listed'),
    ("lambda anonymous functions", "lambda", "anonymous functions"),
    ("str.casefold", "string-methods", "Return a casefolded copy of the string"),
    ("comparisons chained arbitrarily", "comparisons", "Comparisons can be chained arbitrarily"),
    ("__cause__ attribute", "raise", '"__cause__" attribute'),
    ("__exit__ exc_type exc_value traceback", "context-managers", "object.__exit__(self, exc_type, exc_value, traceback)"),
    ("free variable", "naming", "it is a *free variable*"),
    ("soft keywords", "identifiers", "known as *soft keywords*"),
    ("exponentfloat", "floating", "exponentfloat ::="),
    ("global statement declaration", "global", 'The "global" statement is a declaration'),
    ("pass null operation", "pass", '"pass" is a null operation'),
    ("str.zfill", "string-methods", "str.zfill(width)"),
    ("right shift by n bits", "shifting", "A right shift by *n* bits"),
    ("private name mangling", "atom-identifiers", "Private name mangling"),
    ("__index__", "numeric-types", "object.__index__(self)"),
    ("__getattr__", "attribute-access", "object.__getattr__(self, name)"),
    ("__bool__", "customization", "object.__bool__(self)"),
    ("__hash__", "customization", "object.__hash__(self)"),
    ("Format Specification Mini-Language", "formatstrings", "Format Specification Mini-Language"),
    ("default parameter values evaluated", "function", "Default parameter values are evaluated from left to right"),
    ("unary invert operator", "unary", 'The unary "~" (invert) operator'),
    ("__mro__", "specialattrs", "__mro__"),
    ("__class_getitem__", "subscriptions", "__class_getitem__"),
    ("imagnumber", "imaginary", "imagnumber ::="),
    ("Ellipsis object", "bltin-ellipsis-object", "Ellipsis"),
]

PARAPHRASE = [
    ("what value does the loop variable keep when you leave a loop early", "break",
     "the loop control target keeps its current value"),
    ("can an error handler repair the problem and retry the failing code", "exceptions", "model of error handling"),
    ("how to make a small function without a name", "lambda", "anonymous functions"),
    ("compare two strings ignoring upper and lower case", "string-methods", "Return a casefolded copy of the string"),
    ("which values count as false in an if test", "truth", "most of the built-in objects considered false"),
    ("pause a program and step through it line by line", "debugger", "single stepping at the source line level"),
    ("is a < b < c the same as two comparisons joined with and", "comparisons", "Comparisons can be chained arbitrarily"),
    ("link a new error to the original error that caused it", "raise", '"__cause__" attribute'),
    ("which method runs when leaving a with block", "context-managers", "object.__exit__(self, exc_type, exc_value, traceback)"),
    ("a name used in a block but not defined there", "naming", "it is a *free variable*"),
    ("words like match and case that are reserved only in some places", "identifiers", "known as *soft keywords*"),
    ("let an inner function rebind a variable of the enclosing function", "nonlocal",
     'The "nonlocal" statement causes the listed'),
    ("assign to a module level variable from inside a function", "global", 'The "global" statement is a declaration'),
    ("a statement that does nothing, used as a placeholder", "pass", '"pass" is a null operation'),
    ("pad a numeric string with zeros on the left", "string-methods", "str.zfill(width)"),
    ("divide by a power of two with a bit operator", "shifting", "A right shift by *n* bits"),
    ("identifiers with two leading underscores inside a class get renamed", "atom-identifiers", "Private name mangling"),
    ("what turns a function into a generator", "yield", "Using yield in a function definition is sufficient"),
    ("when are the default values of function arguments computed", "function",
     "Default parameter values are evaluated from left to right"),
    ("the order in which base classes are searched for a method", "specialattrs", "__mro__"),
    ("code that runs whether or not an exception happened", "try", "it specifies a ‘cleanup’ handler"),
    ("repeat a block as long as a condition is true", "while", 'The "while" statement is used for repeated execution'),
    ("matrix multiplication operator", "binary", 'The "@" (at) operator'),
    ("losslessly convert a numeric object to an integer, for slicing", "numeric-types", "object.__index__(self)"),
    ("what is called when normal attribute lookup fails", "attribute-access", "object.__getattr__(self, name)"),
    ("the official string representation of an object, for debugging", "customization", "object.__repr__(self)"),
    ("skip to the next cycle of the enclosing loop", "continue", "continues with the next cycle"),
    ("numbers with a j suffix", "imaginary", "imagnumber ::="),
    ("can the type of an object change after it is created", "objects", "is also unchangeable"),
    ("the three dots literal", "bltin-ellipsis-object", "Ellipsis"),
]

K, MRR_DEPTH = 5, 10
RANKINGS = {"keyword": {"meaning": False}, "meaning": {"keyword": False}, "hybrid": {}}


def _norm(text: str) -> str:
    return " ".join(text.split())


def corpus(folder: Path) -> int:
    import pydoc_data.topics as topics

    for name, text in topics.topics.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    return sum(len(t) for t in topics.topics.values())


def gold_ids(store, questions) -> list[set[str]]:
    """Each question's gold passages: every passage holding its phrase. Topics overlap (the
    `specialnames` topic holds `customization`, `attribute-access`, …), so a passage counts
    wherever it is; the question's own topic must hold one, else the question is a bug here."""
    from sym.core.memory import library

    by_name = {d.name: d for d in library.documents(store)}
    texts = [(r.id, r.meta.get("name"), _norm(r.text)) for d in by_name.values() for r in library.passages(store, d.id)]
    out = []
    for query, topic, phrase in questions:
        ids = {i for i, _, text in texts if _norm(phrase) in text}
        if not any(name == f"{topic}.txt" for i, name, _ in texts if i in ids):
            sys.exit(f"no passage of {topic}.txt holds {phrase!r} (query {query!r})")
        out.append(ids)
    return out


def measure(store, questions, golds, options: dict) -> dict:
    from sym.core.memory.retrieval import hybrid_search

    recall, reciprocal, times = [], [], []
    for (query, _, _), gold in zip(questions, golds):
        started = time.perf_counter()
        hits = hybrid_search(store, query, ("docs",), MRR_DEPTH, wait=None, **options)
        times.append((time.perf_counter() - started) * 1000)
        ranks = [i for i, h in enumerate(hits, start=1) if h.id in gold]
        recall.append(1.0 if ranks and ranks[0] <= K else 0.0)
        reciprocal.append(1.0 / ranks[0] if ranks else 0.0)
    return {"recall@5": statistics.mean(recall), "mrr@10": statistics.mean(reciprocal),
            "ms_per_query": statistics.median(times)}


SEARCH_K, ROUNDS = 5, 3


def same_hits(store, questions) -> dict:
    """Hits with the keyword ranking read as deep as k needs against both rankings read to the full
    depth (as before): ids in order, and each hit's ranks and score, per k."""
    from sym.core.memory import retrieval

    out = {}
    for k in (SEARCH_K, MRR_DEPTH):
        equal = same_scores = first = 0
        depth, full = retrieval.read_depth(k), retrieval.full_depth(k)
        for query in questions:
            quick = retrieval.hybrid_search(store, query, ("docs",), k, wait=None)
            whole = retrieval.hybrid_search(store, query, ("docs",), k, wait=None, depth=full)
            equal += [h.id for h in quick] == [h.id for h in whole]
            same_scores += [(h.score, h.keyword_rank, h.meaning_rank) for h in quick] == \
                [(h.score, h.keyword_rank, h.meaning_rank) for h in whole]
            kw = [r.id for r, _ in retrieval.keyword_ranking(store, query, depth)]
            meaning = [h.id for h in retrieval.meaning_ranking(store, query, ("docs",), full, wait=None)]
            fused = retrieval.fuse([(kw, retrieval.KEYWORD_K, retrieval.KEYWORD_WEIGHT),
                                    (meaning, retrieval.MEANING_K, retrieval.MEANING_WEIGHT)])
            first += retrieval.decided(kw, meaning, fused, k, keyword_depth=depth, meaning_depth=full)
        out[k] = {"questions": len(questions), "same_hits": equal, "same_scores_and_ranks": same_scores,
                  "decided_at_first_depth": first, "first_depth": depth}
    return out


def search_cost(store, questions) -> dict:
    """`/search`'s library call against a raw chromadb query of the same collection, interleaved."""
    from sym.core.memory import library

    collection, embedder = store.vectors.collection("docs"), store.embedder

    def raw(query: str):
        (vector,) = embedder.embed([query])
        return collection.query(query_embeddings=[vector], n_results=SEARCH_K)

    def ours(query: str):
        return library.search(store, query, k=SEARCH_K, wait=None)

    times: dict[str, dict[str, list[float]]] = {"sym": {"cpu": [], "wall": []}, "raw": {"cpu": [], "wall": []}}
    raw(questions[0])
    ours(questions[0])
    for _ in range(ROUNDS):
        for query in questions:
            for name, run in (("sym", ours), ("raw", raw)):
                cpu, wall = time.process_time(), time.perf_counter()
                run(query)
                times[name]["cpu"].append((time.process_time() - cpu) * 1000)
                times[name]["wall"].append((time.perf_counter() - wall) * 1000)
    med = {name: {kind: statistics.median(v) for kind, v in t.items()} for name, t in times.items()}
    return {"k": SEARCH_K, "queries": len(questions) * ROUNDS, "sym_ms": med["sym"], "raw_ms": med["raw"],
            "ratio_cpu": med["sym"]["cpu"] / med["raw"]["cpu"], "ratio_wall": med["sym"]["wall"] / med["raw"]["wall"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", default=None, help="static (default for new workspaces), hash, ollama:MODEL, …")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sym-retrieval-") as scratch:
        os.environ["SYM_HOME"] = str(Path(scratch) / "home")
        folder = Path(scratch) / "reference"
        folder.mkdir()
        chars = corpus(folder)
        from sym.core.memory import library
        from sym.repl.dispatcher import MemoryOptions, open_shell

        shell = open_shell(MemoryOptions("bench", embedder=args.embedder), record=False)
        try:
            store = shell.memory.store
            started = time.perf_counter()
            done, skipped = library.load_many(store, sorted((p, p.name) for p in folder.iterdir()))
            cut = time.perf_counter() - started
            store.wait(None)
            embedded = time.perf_counter() - started
            passages = sum(d.info.chunks for d in done)
            report = {"corpus": "pydoc_data.topics (Python Language Reference help topics, CPython "
                                f"{sys.version.split()[0]})", "documents": len(done), "passages": passages,
                      "characters": chars, "embedder": store.embedder.name, "load_seconds": round(cut, 2),
                      "embed_seconds": round(embedded, 2), "sets": {}}
            for label, questions in (("exact-term", EXACT), ("paraphrase", PARAPHRASE)):
                golds = gold_ids(store, questions)
                report["sets"][label] = {"queries": len(questions), **{
                    name: measure(store, questions, golds, options) for name, options in RANKINGS.items()}}
            everything = [q for q, _, _ in EXACT + PARAPHRASE]
            report["same_hits"] = same_hits(store, everything)
            report["search_vs_raw_chromadb"] = search_cost(store, everything)
        finally:
            shell.close()
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"corpus: {report['corpus']}: {report['documents']} documents, {passages} passages, {chars:,} characters; "
          f"embedder {report['embedder']}; cut and stored in {report['load_seconds']} s, embedded by "
          f"{report['embed_seconds']} s")
    print(f"{'query set':<12} {'ranking':<8} {'recall@5':>9} {'MRR@10':>7} {'ms/query':>9}")
    for label, result in report["sets"].items():
        for name in RANKINGS:
            r = result[name]
            print(f"{label + ' (' + str(result['queries']) + ')':<12} {name:<8} {r['recall@5']:>9.2f} "
                  f"{r['mrr@10']:>7.2f} {r['ms_per_query']:>9.1f}")
    for k, same in report["same_hits"].items():
        print(f"k = {k}: the same hits in the same order as both rankings read to depth 50 for "
              f"{same['same_hits']}/{same['questions']} questions, with the same scores and ranks for "
              f"{same['same_scores_and_ranks']}; keywords read to depth {same['first_depth']} decided "
              f"{same['decided_at_first_depth']}")
    c = report["search_vs_raw_chromadb"]
    print(f"/search (k = {c['k']}, {c['queries']} queries) {c['sym_ms']['cpu']:.2f} ms CPU, {c['sym_ms']['wall']:.2f} ms "
          f"wall; raw chromadb query {c['raw_ms']['cpu']:.2f} / {c['raw_ms']['wall']:.2f} ms: "
          f"{c['ratio_cpu']:.1f}x CPU, {c['ratio_wall']:.1f}x wall (goal <= 3x)")


if __name__ == "__main__":
    main()
