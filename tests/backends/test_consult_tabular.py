"""`/consult FILE.csv|.tsv|.parquet as NAME/ARITY` (or `as NAME(COLUMN, …)`) as a user types it:
the rows become facts typed as the parser reads constants, bad rows are named by line and refuse
the whole file (or are skipped with --skip-bad), and a wrong arity, a missing file or a cancel
leave memory as it was. The session log replays a consulted table."""

from __future__ import annotations

import subprocess

import duckdb
import pytest

from sym.core.events import Progress
from sym.repl.dispatcher import Shell
from sym.repl.results import Added
from tests.conftest import fails, state, texts


def facts_of(shell, pred: str) -> set[str]:
    return {t for t in texts(shell.memory) if t.startswith(pred + "(")}


def test_a_csv_is_read_in_column_order_with_its_row_count(sym, tmp_path):
    path = tmp_path / "edges.csv"
    path.write_text("a,b\nb,c\nc,d\n")
    result = sym(f"/consult {path} as edge/2")
    assert isinstance(result, Added) and result.rows == 3 and result.relation == "edge/2"
    assert facts_of(sym.shell, "edge") == {"edge(a, b).", "edge(b, c).", "edge(c, d)."}
    sym("/rule path(X, Y) :- edge(X, Y).")
    sym("/rule path(X, Z) :- path(X, Y), edge(Y, Z).")
    assert [b["Y"] for b in sym("?- path(a, Y).").answer.bindings] == ["b", "c", "d"]
    from sym.repl.render import to_text

    assert to_text(result).splitlines()[0] == "consulted edges.csv: 3 rows as edge/2, 3 facts"


def test_values_are_typed_as_the_parser_reads_constants(sym, tmp_path):
    path = tmp_path / "people.csv"
    path.write_text("name,age,height,note\n"
                    "Bob,42,1.0,'bald eagle'\n"
                    "ann , 7 ,1.5e0,  plain words \n"
                    '"x, y",-3,2.25,"\'it\'\'s\'"\n')
    result = sym(f"/consult {path} as person(name, age, height, note)")
    assert result.rows == 3
    args = sorted(it.clause.args for it in result.items)
    assert args == [("Bob", 42, 1, "bald eagle"), ("ann", 7, 1.5, "plain words"), ("x, y", -3, 2.25, "it's")]
    assert sym("?- person('Bob', A, _, _), A > 40.").answer.bindings == [{"A": 42}]


def test_named_and_numbered_columns_pick_and_reorder(sym, tmp_path):
    path = tmp_path / "e.csv"
    path.write_text("src,weight,dst\na,5,b\nb,6,c\n")
    sym(f"/consult {path} as edge(dst, src)")
    assert facts_of(sym.shell, "edge") == {"edge(b, a).", "edge(c, b)."}
    sym(f"/consult {path} as weight(1, 2) --header")
    assert facts_of(sym.shell, "weight") == {"weight(a, 5).", "weight(b, 6)."}
    fails(sym(f"/consult {path} as edge(src, nope)"), "no column named 'nope'", "src, weight, dst")


def test_a_tsv_and_a_header_skipped_by_flag(sym, tmp_path):
    path = tmp_path / "t.tsv"
    path.write_text("from\tto\nx y\tz\n")
    sym(f"/consult {path} as link/2 --header")
    assert facts_of(sym.shell, "link") == {"link('x y', z)."}


def test_a_parquet_file_written_by_duckdb_keeps_its_column_types(sym, tmp_path):
    path = tmp_path / "p.parquet"
    con = duckdb.connect()
    con.execute("COPY (SELECT i AS id, i * 1.5 AS score, 'n' || i AS name, i % 2 = 0 AS even "
                "FROM range(4) t(i)) TO ? (FORMAT parquet)", [str(path)])
    con.close()
    result = sym(f"/consult {path} as item(name, id, score, even)")
    assert result.rows == 4
    assert sorted(it.clause.args for it in result.items) == [
        ("n0", 0, 0, "true"), ("n1", 1, 1.5, "false"), ("n2", 2, 3, "true"), ("n3", 3, 4.5, "false")]
    sym(f"/consult {path} as row/4")
    assert "row(2, 3, n2, true)." in facts_of(sym.shell, "row")


def test_bad_rows_refuse_the_whole_file_naming_the_first_few_by_line(sym, tmp_path):
    path = tmp_path / "bad.csv"
    lines = ["a,b"] * 10
    for i in (2, 4, 5, 6, 7, 8, 9):
        lines[i] = "a,b,c" if i % 2 else "a,"
    path.write_text("src,dst\n" + "\n".join(lines) + "\n")
    before = state(sym.shell)
    message = fails(sym(f"/consult {path} as edge/2 --header"), "7 of 10 rows are bad", "nothing added")
    assert "line 4: empty value in column 2 (dst)" in message
    assert "line 7: too many columns (the file has 2)" in message
    assert "and 2 more" in message and "line 11" not in message
    assert state(sym.shell) == before


def test_skip_bad_adds_the_good_rows_and_reports_the_bad(sym, tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("a,b\n\nb,\n\"c\nd\",e\n,f\ng,h\n")
    result = sym(f"/consult {path} as edge/2 --skip-bad")
    assert isinstance(result, Added) and result.rows == 5
    assert facts_of(sym.shell, "edge") == {"edge(a, b).", "edge('c\\nd', e).", "edge(g, h)."}
    assert result.warnings[0].startswith("2 bad rows skipped (--skip-bad): line 3: empty value in column 2; "
                                         "line 6: empty value in column 1")
    sources = {it.text: it.source for it in result.items}   # lines counted past the blank line and the quoted break
    assert sources == {"edge(a, b).": "bad.csv:1", "edge('c\\nd', e).": "bad.csv:4", "edge(g, h).": "bad.csv:7"}


def test_a_wrong_arity_a_missing_file_and_a_table_without_as_change_nothing(sym, tmp_path):
    path = tmp_path / "e.csv"
    path.write_text("a,b,c\n")
    before = state(sym.shell)
    fails(sym(f"/consult {path} as edge/2"), "e.csv has 3 columns", "edge/2 takes 2")
    fails(sym(f"/consult {tmp_path / 'none.csv'} as edge/2"), "no such file")
    fails(sym(f"/consult {path}"), "is a table", "relation")
    fails(sym(f"/consult {path} as edge(1, 4)"), "no column 4")
    fails(sym(f"/consult {path} as edge/0"), "at least one column")
    fails(sym(f"/consult {tmp_path / 'x.txt'} as edge/2"), "no such file")
    (tmp_path / "x.txt").write_text("a,b\n")
    fails(sym(f"/consult {tmp_path / 'x.txt'} as edge/2"), "cannot tell the format")
    assert state(sym.shell) == before


def big_csv(path, rows: int):
    path.write_text("".join(f"n{i},n{i + 1}\n" for i in range(rows)))
    return path


@pytest.mark.parametrize("task", ["reading", "storing"])
def test_a_cancel_while_reading_or_storing_leaves_nothing(shells, tmp_path, task):
    path = big_csv(tmp_path / "big.csv", 40_000)
    shell = shells("w")
    shell.execute("/fact kept(yes).")
    flag = shell.ctx.cancel
    seen = []

    def on_event(event):
        if isinstance(event, Progress) and event.task.startswith(task):
            seen.append(event)
            flag.set()

    shell.ctx.stream.front = on_event
    fails(shell.execute(f"/consult {path} as edge/2")[1], "cancelled")
    assert seen
    assert texts(shell.memory) == {"kept(yes)."}
    assert not list(shell.memory.engine.facts())[1:]
    shell.close()
    again = shells("w")
    assert texts(again.memory) == {"kept(yes)."}


def test_max_facts_bounds_a_table_in_memory(sym, tmp_path):
    path = big_csv(tmp_path / "big.csv", 20_000)
    sym("/set max_facts 10000")
    fails(sym(f"/consult {path} as edge/2"), "more than 10,000 rows", "max_facts")
    assert not texts(sym.shell.memory)


def test_a_consulted_table_is_logged_and_replays_equal(sym_exe, sym_home, tmp_path):
    from sym.sessions.log import read_session

    (tmp_path / "edges.csv").write_text("src,dst\na,b\nb,c\n")
    script = tmp_path / "s.sym"
    script.write_text("/consult edges.csv as edge(src, dst)\npath(X, Y) :- edge(X, Y).\n"
                      "path(X, Z) :- path(X, Y), edge(Y, Z).\n?- path(a, X).\n")
    proc = subprocess.run([*sym_exe, "--batch", str(script)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "consulted edges.csv: 2 rows as edge/2, 2 facts" in proc.stdout
    (log,) = sorted((sym_home / "sessions").glob("*.jsonl"))
    rec = read_session(log)
    added = [e["text"] for e in rec.events if e["t"] == "memory" and e["op"] == "add"]
    assert added[:2] == ["edge(a, b).", "edge(b, c)."]
    assert rec.outputs()[0]["result"]["rows"] == 2
    replay = subprocess.run([*sym_exe, "replay", str(log), "--verify", "--trust"], capture_output=True, text=True,
                            timeout=120, cwd=tmp_path)
    assert replay.returncode == 0, replay.stderr
    assert "replayed 4 commands" in replay.stderr and "equal" in replay.stderr


def test_an_untrusted_replay_names_the_table_it_would_read(sym_home, tmp_path):
    from sym.sessions.guard import ReplayGuard

    guard = ReplayGuard(tmp_path / "scratch", Shell().registry)
    (tmp_path / "scratch").mkdir()
    reason = guard.check("/consult /etc/passwd.csv as edge/2")
    assert reason is not None and "'/etc/passwd.csv'" in reason and "edge/2" not in reason


def test_on_the_duckdb_engine_a_table_goes_straight_into_its_tables(shells, tmp_path):
    from sym.core.backends.choice import kind

    shell = shells("default")
    shell.execute("/workspace big --engine duckdb")
    assert kind(shell.memory.engine) == "duckdb"
    (tmp_path / "e.csv").write_text("src,dst\na,b\nb,c\nc,d\n")
    result = shell.execute(f"/consult {tmp_path / 'e.csv'} as edge(src, dst)")[1]
    assert isinstance(result, Added) and result.rows == 3 and result.loaded == 3 and not result.items
    shell.execute("/rule path(X, Y) :- edge(X, Y).")
    shell.execute("/rule path(X, Z) :- path(X, Y), edge(Y, Z).")
    answer = shell.execute("?- path(a, Y).")[1]
    assert sorted(b["Y"] for b in answer.to_dict()["bindings"]) == ["b", "c", "d"]
    (tmp_path / "bad.csv").write_text("a,z\n,y\n")
    fails(shell.execute(f"/consult {tmp_path / 'bad.csv'} as edge/2")[1], "1 of 2 rows are bad", "line 2")
    (tmp_path / "mixed.csv").write_text("a,1\nb,c\n")
    fails(shell.execute(f"/consult {tmp_path / 'mixed.csv'} as edge/2")[1], "both numbers and atoms")
    answer = shell.execute("?- path(a, Y).")[1]
    assert sorted(b["Y"] for b in answer.to_dict()["bindings"]) == ["b", "c", "d"]


def test_an_untrusted_replay_keeps_this_machines_spark_master(tmp_path):
    from sym.sessions.guard import ReplayGuard

    (tmp_path / "scratch").mkdir()
    guard = ReplayGuard(tmp_path / "scratch", Shell().registry)
    assert "spark.master" in (guard.check("/set spark.master spark://elsewhere:7077") or "")
    assert guard.check("/set max_facts 10") is None
