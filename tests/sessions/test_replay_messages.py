"""What replay says: a script is not a damaged log, and a difference shows what was expected."""

from __future__ import annotations

import io
import json

from sym.core.errors import UserError
from sym.repl.replay import first_difference, replay
from sym.sessions.log import read_session


def test_a_script_given_to_replay_is_named_as_a_script(tmp_path):
    script = tmp_path / "tour.sym"
    script.write_text("% a script\np(a).\n/listing\n")
    try:
        read_session(script)
    except UserError as err:
        assert "is a script or text, not a session log" in err.message
        assert err.hint == f"run a script with: sym --batch {script}"
    else:
        raise AssertionError("a script was read as a session")


def test_a_difference_names_the_field_with_expected_and_actual(shells, tmp_path):
    shell = shells(record=True)
    shell.execute("p(a).")
    shell.execute("?- p(X).")
    path = shell.ctx.session.path
    shell.close()
    lines = path.read_text().splitlines()
    doctored = []
    for line in lines:
        event = json.loads(line)
        if event["t"] == "output" and event["result"]["command"] == "/query":
            event["result"] = json.loads(json.dumps(event["result"]).replace('"a"', '"zed"'))
        doctored.append(json.dumps(event))
    path.write_text("\n".join(doctored) + "\n")
    report = replay(read_session(path), verify=True, out=io.StringIO(), err=io.StringIO())
    [difference] = report.differences
    assert "output differs: " in difference and "expected" in difference and "'zed'" in difference \
        and "got" in difference and "'a'" in difference


def test_first_difference_walks_to_the_first_differing_field():
    assert first_difference({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 3]}) == "b[1]: expected 2, got 3"
    assert first_difference({"a": 1}, {"a": 1, "c": "x"}) == "c: expected None, got 'x'"
    assert first_difference("x" * 200, "y").startswith("the output: expected 'xxx")
