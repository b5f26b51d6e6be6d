"""Embedders side by side: sentences per second, install size and retrieval accuracy on paraphrases.

    python benchmarks/embedder_bench.py                     # static and hash
    python benchmarks/embedder_bench.py --embedder st:all-MiniLM-L6-v2 --n 2000

Retrieval: each query is a paraphrase of one of the passages below with few words in common
(automobile / car, physician / doctor, …); every passage is a candidate. Reported: accuracy@1 and
mean reciprocal rank. Speed: `--n` sentences of mixed length, embedded in batches of 256, after one
warm-up call (the first call's load time is reported apart). Nothing here is part of the test run.
"""

from __future__ import annotations

import argparse
import time

# (query, passage): the query says what the passage is about in other words
PAIRS = [
    ("automobile", "Cars need regular care: change the engine oil, check the tyres and the brakes every year."),
    ("preparing a meal", "Cooking a risotto takes patience: stir the rice and add warm stock a ladle at a time."),
    ("seeing a physician", "When you feel ill, book an appointment with your doctor at the local clinic."),
    ("canine companions", "Dogs are loyal pets that love long walks and playing fetch in the park."),
    ("feline behaviour", "A cat will often sleep for most of the day and hunt mice at night."),
    ("purchasing a home", "Buying a house usually means taking out a mortgage with a bank."),
    ("stormy weather", "Heavy rain, thunder and strong wind are expected across the region tonight."),
    ("school pupils", "The students handed in their homework to the teacher before the lesson."),
    ("monetary compensation", "Employees receive their salary at the end of every month."),
    ("aircraft travel", "The plane took off from the airport and landed three hours later."),
    ("ocean creatures", "Whales, dolphins and sharks live in the sea."),
    ("fixing a computer", "If the laptop will not start, try replacing its battery or its power cable."),
    ("a large city", "Tokyo is a huge metropolis with millions of inhabitants."),
    ("musical instruments", "She plays the violin, and her brother plays the piano and the drums."),
    ("rising prices", "Inflation made groceries and fuel more expensive this year."),
    ("physical exercise", "Running, swimming and cycling keep the body fit and healthy."),
    ("a court case", "The judge listened to the lawyers before the jury gave its verdict."),
    ("growing vegetables", "In the garden we plant tomatoes, carrots and lettuce every spring."),
    ("kinship", "Anne is the mother of Bob, and Bob is the father of Carol."),
    ("sleeping poorly", "He lies awake at night and cannot fall asleep: insomnia."),
    ("a wedding", "The bride and groom exchanged rings in front of their families."),
    ("reading novels", "She borrowed three books of fiction from the library."),
    ("ill health", "The patient has a fever, a cough and a sore throat."),
    ("a sports match", "The team scored twice in the second half and won the game."),
]
FILLER = ["Bob is big.", "father_of(joshua, don).", "If something is big then it is strong.",
          "The quick brown fox jumps over the lazy dog near the bank of the river this morning.",
          "Kinship rules over a hundred thousand people derive more than a million facts."]


def retrieval(embedder) -> tuple[float, float]:
    import numpy as np

    queries = np.array(embedder.embed([q for q, _ in PAIRS]), dtype=float)
    passages = np.array(embedder.embed([p for _, p in PAIRS]), dtype=float)
    queries /= np.maximum(np.linalg.norm(queries, axis=1, keepdims=True), 1e-12)
    passages /= np.maximum(np.linalg.norm(passages, axis=1, keepdims=True), 1e-12)
    scores = queries @ passages.T
    ranks = [int((row > row[i]).sum()) + 1 for i, row in enumerate(scores)]
    return sum(r == 1 for r in ranks) / len(ranks), sum(1 / r for r in ranks) / len(ranks)


def speed(embedder, n: int) -> tuple[float, float]:
    started = time.perf_counter()
    embedder.embed(["warm up"])
    load = time.perf_counter() - started
    texts = [f"{FILLER[i % len(FILLER)]} ({i})" for i in range(n)]
    started = time.perf_counter()
    for k in range(0, n, 256):
        embedder.embed(texts[k:k + 256])
    return load, n / (time.perf_counter() - started)


def install_mb(distribution: str | None) -> str:
    if distribution is None:
        return "built in"
    from importlib import metadata

    try:
        files = metadata.distribution(distribution).files or []
    except metadata.PackageNotFoundError:
        return "not installed"
    total = sum((f.locate().stat().st_size for f in files if f.locate().is_file()), 0)
    return f"{total / 1e6:.1f} MB"


def main() -> None:
    from sym.core.memory.embedders import STATIC_PACKAGE, make_embedder

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", action="append", help="an embedder spec (repeatable); default: static, hash")
    parser.add_argument("--n", type=int, default=5000, help="sentences for the speed run")
    args = parser.parse_args()
    specs = args.embedder or ["static", "hash"]
    packages = {"static": STATIC_PACKAGE, "hash": None}
    print(f"{'embedder':<24}{'load s':>8}{'sent/s':>10}{'acc@1':>8}{'MRR':>7}  install")
    for spec in specs:
        embedder = make_embedder(spec)
        load, rate = speed(embedder, args.n)
        acc, mrr = retrieval(embedder)
        size = install_mb(packages.get(spec, "sentence-transformers" if spec.startswith("st:") else None))
        print(f"{embedder.name:<24}{load:>8.2f}{rate:>10.0f}{acc:>8.2f}{mrr:>7.2f}  {size}")


if __name__ == "__main__":
    main()
