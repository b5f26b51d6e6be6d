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


if __name__ == "__main__":
    main()
