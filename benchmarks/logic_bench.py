"""Benchmark sym's logic engine against clingo and DuckDB on the same Datalog workloads.

Not part of the test run. Usage (from the repository root):

    PYTHONPATH=. .venv/bin/python benchmarks/logic_bench.py            # full run (~1-2 min, 2 cores)
    PYTHONPATH=. .venv/bin/python benchmarks/logic_bench.py --quick    # small sizes, smoke run
    PYTHONPATH=. .venv/bin/python benchmarks/logic_bench.py --only tc|kinship|horn

Workloads (all inputs generated deterministically from a fixed seed):

- ``chain-N``: transitive closure of the chain edge(0,1), …, edge(N-1,N);
- ``random-V``: transitive closure of a random directed graph (V nodes, 1.5 V edges);
- ``kinship-N``: eleven kinship rules (father, mother, sibling, brother, sister, uncle,
  aunt, cousin, grandparent, ancestor ×2) over N people in four generations of equal
  size; every non-founder has a father and a mother who are a couple of the previous
  generation, and each child picks its parents' couple uniformly (≈ Poisson(2) family
  sizes), so sibling and cousin counts stay realistic.

Every engine is timed on "load + eval + count" from the same logic text:

- sym: ``parse_program`` + ``Engine.add_program`` + ``infer`` + ``len`` of each derived
  relation (parsing included; Python's cyclic GC left on, as a user of the shell has it);
- clingo (Python API), on the same text with ``X \\= Y`` spelled ``X != Y``: ``Control`` +
  ``add`` + ``ground`` + the number of ground atoms
  minus the number of (distinct) input facts. The programs are stratified, so grounding
  decides them and every ground atom is true; after the timed part the count is checked
  untimed against the atoms of the (single) stable model;
- DuckDB: the same fact text is read with ``read_text`` and split by a regular expression
  into tables (so DuckDB also parses), then recursive SQL (``WITH RECURSIVE … UNION``) for
  closure / ancestor and plain joins for the other kinship rules.

Derived-fact counts must agree across engines; a disagreement prints a MISMATCH line and
the script exits with status 1. After the table, ``benchmarks/horn_bench.py``'s ``run()``
is called when that file exists (its rows and the time ratio between consecutive sizes).
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sym.core.logic.engine import Engine  # noqa: E402
from sym.core.logic.parser import parse_program  # noqa: E402

SEED = 0

# -- workloads -----------------------------------------------------------------------------

TC_RULES = """\
path(X, Y) :- edge(X, Y).
path(X, Z) :- path(X, Y), edge(Y, Z).
"""
TC_DERIVED = {"path": 2}

KINSHIP_RULES = """\
father(X, Y) :- parent(X, Y), male(X).
mother(X, Y) :- parent(X, Y), female(X).
sibling(X, Y) :- parent(P, X), parent(P, Y), X \\= Y.
brother(X, Y) :- sibling(X, Y), male(X).
sister(X, Y) :- sibling(X, Y), female(X).
uncle(U, X) :- parent(P, X), brother(U, P).
aunt(A, X) :- parent(P, X), sister(A, P).
cousin(X, Y) :- parent(P, X), parent(Q, Y), sibling(P, Q).
grandparent(X, Z) :- parent(X, Y), parent(Y, Z).
ancestor(X, Y) :- parent(X, Y).
ancestor(X, Z) :- parent(X, Y), ancestor(Y, Z).
"""
KINSHIP_DERIVED = {"father": 2, "mother": 2, "sibling": 2, "brother": 2, "sister": 2, "uncle": 2,
                   "aunt": 2, "cousin": 2, "grandparent": 2, "ancestor": 2}

GENERATIONS = 4


class Workload:
    """One benchmark input: fact text, rule text, and what DuckDB needs to redo it in SQL."""

    def __init__(self, name: str, facts: str, n_facts: int, rules: str, derived: dict[str, int],
                 sql: Callable[[object], int] | None):
        self.name = name
        self.facts = facts          # one ground fact per line
        self.n_facts = n_facts      # distinct input facts (all generated facts are distinct)
        self.rules = rules
        self.derived = derived      # predicate -> arity of every derived relation
        self.sql = sql              # con -> derived count, after the fact table is loaded
        self.text = facts + rules   # what sym reads
        # clingo reads the same text, spelling Prolog's `\=` as ASP's `!=`
        self.asp_text = facts + rules.replace("\\=", "!=")

    @property
    def derived_keys(self) -> list[str]:
        return [f"{p}/{a}" for p, a in self.derived.items()]


def chain(n: int) -> Workload:
    facts = "".join(f"edge({i}, {i + 1}).\n" for i in range(n))
    return Workload(f"chain-{n}", facts, n, TC_RULES, TC_DERIVED, _sql_tc)


def random_graph(nodes: int, per_node: float = 1.5, seed: int = SEED) -> Workload:
    rng = random.Random(seed)
    edges: set[tuple[int, int]] = set()
    while len(edges) < int(nodes * per_node):
        a, b = rng.randrange(nodes), rng.randrange(nodes)
        if a != b:
            edges.add((a, b))
    facts = "".join(f"edge({a}, {b}).\n" for a, b in sorted(edges))
    return Workload(f"random-{nodes}", facts, len(edges), TC_RULES, TC_DERIVED, _sql_tc)


def population(n: int, generations: int = GENERATIONS, seed: int = SEED) -> tuple[list[tuple[str, str]], dict[str, bool]]:
    """(parent, child) pairs and person -> is_male, for n people in equal generations."""
    rng = random.Random(seed)
    size = n // generations
    sizes = [size] * generations
    sizes[-1] += n - size * generations
    people = [f"p{i}" for i in range(n)]
    male = {p: rng.random() < 0.5 for p in people}
    parents: list[tuple[str, str]] = []
    start = 0
    previous: list[str] = []
    for g, count in enumerate(sizes):
        gen = people[start:start + count]
        start += count
        if g:
            men = [p for p in previous if male[p]]
            women = [p for p in previous if not male[p]]
            rng.shuffle(men)
            rng.shuffle(women)
            couples = list(zip(men, women))
            for child in gen:
                father, mother = rng.choice(couples)
                parents.append((father, child))
                parents.append((mother, child))
        previous = gen
    return parents, male


def kinship(n: int, seed: int = SEED) -> Workload:
    parents, male = population(n, seed=seed)
    lines = [f"parent({p}, {c}).\n" for p, c in parents]
    lines += [f"{'male' if m else 'female'}({p}).\n" for p, m in male.items()]
    return Workload(f"kinship-{n}", "".join(lines), len(lines), KINSHIP_RULES, KINSHIP_DERIVED, _sql_kinship)


# -- engines -------------------------------------------------------------------------------

def run_sym(w: Workload) -> tuple[int, object]:
    engine = Engine()
    engine.add_program(located.clause for located in parse_program(w.text))
    inference = engine.infer()
    count = sum(len(engine.relation(k)) for k in w.derived_keys)
    if count != inference.derived:
        print(f"  note: sym relation sizes {count} != Inference.derived {inference.derived} on {w.name}")
    return count, None


def run_clingo(w: Workload) -> tuple[int, object]:
    import clingo

    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], w.asp_text)
    ctl.ground([("base", [])])
    # Stratified program: grounding computed the model; every ground atom is a fact.
    return len(ctl.symbolic_atoms) - w.n_facts, ctl


def check_clingo(w: Workload, ctl) -> int:
    """Untimed: count the derived atoms of the stable model itself (and that there is one)."""
    counts: Counter = Counter()
    models = 0
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            models += 1
            counts = Counter((s.name, len(s.arguments)) for s in model.symbols(atoms=True))
    if models != 1:
        return -1
    return sum(c for (name, arity), c in counts.items() if w.derived.get(name) == arity)


FACT_RE = r"^\s*([a-z]\w*)\(\s*(\w+)\s*(?:,\s*(\w+)\s*)?\)\s*\.\s*$"


def run_duckdb(w: Workload, path: str) -> tuple[int, object]:
    import duckdb

    con = duckdb.connect()
    con.execute(f"""
        CREATE TABLE facts AS
        SELECT f.pred AS pred, f.a AS a, f.b AS b FROM (
            SELECT regexp_extract(l, '{FACT_RE}', ['pred', 'a', 'b']) AS f
            FROM (SELECT unnest(string_split(content, chr(10))) AS l FROM read_text('{path}'))
            WHERE l <> '')
    """)
    count = w.sql(con)
    con.close()
    return count, None


def _sql_tc(con) -> int:
    con.execute("CREATE TABLE edge AS SELECT CAST(a AS INTEGER) AS x, CAST(b AS INTEGER) AS y "
                "FROM facts WHERE pred = 'edge'")
    return con.execute("""
        WITH RECURSIVE path(x, y) AS (
            SELECT x, y FROM edge
            UNION
            SELECT p.x, e.y FROM path p JOIN edge e ON p.y = e.x)
        SELECT count(*) FROM path
    """).fetchone()[0]


KINSHIP_SQL = [
    "CREATE TABLE parent AS SELECT a AS p, b AS c FROM facts WHERE pred = 'parent'",
    "CREATE TABLE male AS SELECT a AS x FROM facts WHERE pred = 'male'",
    "CREATE TABLE female AS SELECT a AS x FROM facts WHERE pred = 'female'",
    "CREATE TABLE father AS SELECT DISTINCT p.p AS x, p.c AS y FROM parent p JOIN male m ON m.x = p.p",
    "CREATE TABLE mother AS SELECT DISTINCT p.p AS x, p.c AS y FROM parent p JOIN female f ON f.x = p.p",
    "CREATE TABLE sibling AS SELECT DISTINCT a.c AS x, b.c AS y FROM parent a JOIN parent b ON a.p = b.p "
    "WHERE a.c <> b.c",
    "CREATE TABLE brother AS SELECT DISTINCT s.x, s.y FROM sibling s JOIN male m ON m.x = s.x",
    "CREATE TABLE sister AS SELECT DISTINCT s.x, s.y FROM sibling s JOIN female f ON f.x = s.x",
    "CREATE TABLE uncle AS SELECT DISTINCT b.x AS x, p.c AS y FROM parent p JOIN brother b ON b.y = p.p",
    "CREATE TABLE aunt AS SELECT DISTINCT s.x AS x, p.c AS y FROM parent p JOIN sister s ON s.y = p.p",
    "CREATE TABLE cousin AS SELECT DISTINCT a.c AS x, b.c AS y FROM parent a "
    "JOIN sibling s ON s.x = a.p JOIN parent b ON b.p = s.y",
    "CREATE TABLE grandparent AS SELECT DISTINCT a.p AS x, b.c AS y FROM parent a JOIN parent b ON a.c = b.p",
    """CREATE TABLE ancestor AS WITH RECURSIVE anc(x, y) AS (
           SELECT p, c FROM parent
           UNION
           SELECT p.p, a.y FROM parent p JOIN anc a ON a.x = p.c)
       SELECT x, y FROM anc""",
]


def _sql_kinship(con) -> int:
    for statement in KINSHIP_SQL:
        con.execute(statement)
    return sum(con.execute(f"SELECT count(*) FROM {name}").fetchone()[0] for name in KINSHIP_DERIVED)


# -- timing --------------------------------------------------------------------------------

def measure(fn: Callable[[], tuple[int, object]], repeat: int) -> tuple[float, int, object]:
    """Best-of-`repeat` wall time (only one run when the first takes over half a second)."""
    best, count, keep = float("inf"), -1, None
    for _ in range(repeat):
        keep = None
        gc.collect()
        t0 = time.perf_counter()
        count, keep = fn()
        elapsed = time.perf_counter() - t0
        best = min(best, elapsed)
        if elapsed > 0.5:
            break
    return best, count, keep


def bench(workloads: list[Workload], repeat: int) -> tuple[list[dict], bool]:
    rows, ok = [], True
    with tempfile.TemporaryDirectory() as tmp:
        for w in workloads:
            path = os.path.join(tmp, f"{w.name}.lp")
            Path(path).write_text(w.facts)
            sym_s, sym_n, _ = measure(lambda: run_sym(w), repeat)
            clingo_s, clingo_n, ctl = measure(lambda: run_clingo(w), repeat)
            checked = check_clingo(w, ctl)
            del ctl
            duck_s, duck_n, _ = measure(lambda: run_duckdb(w, path), repeat)
            counts = {"sym": sym_n, "clingo": clingo_n, "clingo model": checked, "duckdb": duck_n}
            if len(set(counts.values())) != 1:
                ok = False
                shown = ", ".join(f"{k}={v}" for k, v in counts.items())
                print(f"MISMATCH {w.name}: {shown}", flush=True)
            rows.append({"workload": w.name, "facts": w.n_facts, "derived": sym_n,
                         "sym": sym_s, "clingo": clingo_s, "duckdb": duck_s})
            print(f"  {w.name:<14} {sym_n:>10,} derived  sym {sym_s:7.3f}s  clingo {clingo_s:7.3f}s  "
                  f"duckdb {duck_s:7.3f}s", flush=True)
            gc.collect()
    return rows, ok


def print_table(rows: list[dict]) -> None:
    head = (f"{'workload':<14} {'input':>8} {'derived':>10} {'sym s':>8} {'clingo s':>9} {'duckdb s':>9} "
            f"{'sym/clingo':>10} {'sym/duckdb':>10}")
    print(head)
    print("-" * len(head))
    for r in rows:
        print(f"{r['workload']:<14} {r['facts']:>8,} {r['derived']:>10,} {r['sym']:>8.3f} {r['clingo']:>9.3f} "
              f"{r['duckdb']:>9.3f} {r['sym'] / r['clingo']:>10.2f} {r['sym'] / r['duckdb']:>10.2f}")


# -- Horn-SAT (another module's benchmark) -------------------------------------------------

def horn(quick: bool) -> None:
    path = ROOT / "benchmarks" / "horn_bench.py"
    if not path.exists():
        print("horn: benchmarks/horn_bench.py not found; skipped")
        return
    spec = importlib.util.spec_from_file_location("horn_bench", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sizes = (10**4, 10**5) if quick else (10**4, 10**5, 10**6)
    gc.collect()
    results = module.run(sizes=sizes, seed=SEED)
    print(f"{'clauses':>10} {'seconds':>9} {'model':>9} {'violated':>9} {'x clauses':>10} {'x time':>8}")
    previous = None
    for r in results:
        model = r.get("model")
        shown = len(model) if hasattr(model, "__len__") else model
        ratio = ""
        if previous is not None and previous["seconds"] > 0:
            ratio = f"{r['clauses'] / previous['clauses']:>10.1f} {r['seconds'] / previous['seconds']:>8.2f}"
        print(f"{r['clauses']:>10,} {r['seconds']:>9.3f} {shown!s:>9} {r.get('violated', '')!s:>9} {ratio}")
        previous = r


# -- main ----------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only (smoke run)")
    parser.add_argument("--only", choices=["tc", "kinship", "horn"], help="run one group of workloads")
    args = parser.parse_args(argv)

    import clingo
    import duckdb

    print(f"python {sys.version.split()[0]}, clingo {clingo.__version__}, duckdb {duckdb.__version__}, "
          f"{os.cpu_count()} cpus, load average {os.getloadavg()[0]:.2f}")
    print("times: wall seconds for load + eval + count, best of up to 3 (a single run above 0.5 s)")
    workloads: list[Callable[[], Workload]] = []
    if args.only in (None, "tc"):
        sizes = (200,) if args.quick else (200, 400, 800)
        workloads += [lambda n=n: chain(n) for n in sizes]
        workloads.append(lambda: random_graph(100 if args.quick else 400))
    if args.only in (None, "kinship"):
        sizes = (1000,) if args.quick else (1000, 10_000, 100_000)
        workloads += [lambda n=n: kinship(n) for n in sizes]
    ok = True
    if workloads:
        rows, ok = bench([make() for make in workloads], repeat=3)
        print()
        print_table(rows)
    if args.only in (None, "horn"):
        print()
        horn(args.quick)
    if not ok:
        print("MISMATCH: engines disagree on derived-fact counts (see above)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
