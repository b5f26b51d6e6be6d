"""`sym mcp` as another agent meets it: a subprocess spoken to with the MCP SDK's own stdio client.

One server (a fresh SYM_HOME, a work folder it may read, a folder beside it it may not) serves the
module's tests in order; a read-only server and a second server on the same workspace are the
other starts. Tests wait for replies, never for fixed times.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
from anyio.from_thread import start_blocking_portal

from tests.ollama_server import unused_url

ROOT = Path(__file__).resolve().parents[2]
WRITES = {"tell", "extract", "fact", "rule", "forget", "consult", "load"}
READS = {"ask", "query", "why", "prove", "check", "infer", "math", "search", "listing"}
WORKSPACE = "agents"


class Client:
    """A `sym mcp` child and an initialized ClientSession to it, driven from sync tests through a
    blocking portal (one event loop thread for the module)."""

    def __init__(self, sym_exe: list[str], home: Path, cwd: Path, *args: str):
        self.command, self.home, self.cwd, self.args = sym_exe, home, cwd, args
        self.errlog = (home / "server-stderr.txt").open("w+")

    @asynccontextmanager
    async def _connect(self):
        from mcp import ClientSession, StdioServerParameters, stdio_client

        env = {"SYM_HOME": str(self.home), "SYM_CONFIG": str(self.home / "config.toml"),
               "OLLAMA_HOST": unused_url(), "PATH": os.environ.get("PATH", "")}
        params = StdioServerParameters(command=self.command[0], args=[*self.command[1:], "mcp", *self.args],
                                       env=env, cwd=str(self.cwd))
        async with stdio_client(params, errlog=self.errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                yield session

    def __enter__(self) -> Client:
        self._portal_cm = start_blocking_portal()
        self.portal = self._portal_cm.__enter__()
        self._session_cm = self.portal.wrap_async_context_manager(self._connect())
        self.session = self._session_cm.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        try:
            self._session_cm.__exit__(*exc)
        finally:
            self._portal_cm.__exit__(*exc)
            self.errlog.close()

    def run(self, fn, *args):
        """Await `fn(session, *args)` on the client's loop."""
        return self.portal.call(fn, self.session, *args)

    def call(self, tool: str, **arguments):
        return self.portal.call(lambda: self.session.call_tool(tool, arguments))

    def read(self, uri: str) -> list[str]:
        return [c.text for c in self.portal.call(lambda: self.session.read_resource(uri)).contents]

    def stderr(self) -> str:
        if not self.errlog.closed:
            self.errlog.flush()
        return (self.home / "server-stderr.txt").read_text()


def text(result) -> str:
    return "\n".join(c.text for c in result.content)


def ok(result) -> dict:
    assert not result.is_error, text(result)
    return result.structured_content


def refused(result, *words: str) -> str:
    """A tool error with a one-line message mentioning each word (no traceback)."""
    assert result.is_error, text(result)
    message = result.structured_content["error"]
    assert "\n" not in message and "Traceback" not in text(result) and "internal error" not in message, message
    for word in words:
        assert word in message, (word, message)
    return message


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    """A data dir whose config allows a huge inference, a work folder the server may read (its cwd)
    and a folder outside it with files and a link into it."""
    root = tmp_path_factory.mktemp("mcp")
    home, work, outside = root / "home", root / "work", root / "outside"
    for folder in (home, work, outside):
        folder.mkdir()
    (home / "config.toml").write_text("[settings]\nmax_facts = 1000000000000\n")
    shutil.copy(ROOT / "examples" / "family.pl", work / "family.pl")
    shutil.copy(ROOT / "examples" / "pets.smt2", work / "pets.smt2")
    (work / "notes.md").write_text("# Cars\n\nAn automobile has four wheels and an engine.\n")
    (outside / "secret.pl").write_text("secret(gold).\n")
    (outside / "secret.md").write_text("The vault code is 1234.\n")
    (work / "link.pl").symlink_to(outside / "secret.pl")
    return {"home": home, "work": work, "outside": outside}


@pytest.fixture(scope="module")
def server(sym_exe, place):
    with Client(sym_exe, place["home"], place["work"], "--memory", WORKSPACE) as client:
        yield client
    assert "Traceback" not in client.stderr(), client.stderr()


# -- listing -------------------------------------------------------------------------------------

def test_tools_and_resources_are_listed_with_schemas_from_the_registry(server):
    from sym.repl.commands import builtin_registry

    listed = {t.name: t for t in server.run(lambda s: s.list_tools()).tools}
    assert set(listed) == WRITES | READS
    registry = builtin_registry()
    ask = listed["ask"]
    assert registry.get("/ask").summary in ask.description and "/ask" in ask.description
    props = ask.input_schema["properties"]
    assert props["max_steps"] == {"type": "integer", "minimum": 0, "description": props["max_steps"]["description"]}
    assert props["mode"]["enum"] == ["hybrid", "paper"] and ask.input_schema["required"] == ["question"]
    assert listed["math"].input_schema["properties"]["operation"]["enum"][:2] == ["simplify", "factor"]
    assert listed["fact"].input_schema["required"] == ["clauses"]
    prove = listed["prove"].input_schema["properties"]
    assert set(prove) == {"question", "file", "program", "format", "samples"}
    assert prove["samples"]["type"] == "integer" and prove["samples"]["minimum"] == 1
    assert listed["query"].annotations.read_only_hint and not listed["forget"].annotations.read_only_hint
    uris = {str(r.uri) for r in server.run(lambda s: s.list_resources()).resources}
    assert uris == {"sym://memory", "sym://schema", "sym://program", "sym://session"}


# -- calling every tool --------------------------------------------------------------------------

def test_a_fact_told_and_a_question_answered_with_its_steps(server):
    told = ok(server.call("tell", text="Bob is big. If something is big then it is red."))
    assert told["kind"] == "told" and [s["outcome"] for s in told["sentences"]] == ["stored", "stored"]
    result = server.call("ask", question="Is Bob red?")
    asked = ok(result)
    assert asked["answer"] == "true" and asked["verified"] and len(asked["steps"]) == 2
    assert "big(bob)" in asked["steps"][0] and text(result).startswith("true")


def test_facts_rules_queries_proof_trees_and_inference(server):
    added = ok(server.call("fact", clauses="parent_of(ann, ben). parent_of(ben, cy)."))
    assert [a["text"] for a in added["added"]] == ["parent_of(ann, ben).", "parent_of(ben, cy)."]
    assert added["added"][0]["source"] == "mcp"
    ok(server.call("rule", clauses="grandparent_of(X, Z) :- parent_of(X, Y), parent_of(Y, Z)."))
    answer = ok(server.call("query", goal="?- grandparent_of(ann, X)."))
    assert answer["bindings"] == [{"X": "cy"}]
    tree = server.call("why", goal="grandparent_of(ann, cy)")
    assert ok(tree)["proofs"][0]["status"] == "derived" and "parent_of(ben, cy)" in text(tree)
    assert ok(server.call("infer", steps=5))["complete"] is True
    listing = ok(server.call("listing", pred="parent_of/2"))
    assert len(listing["items"]) == 2
    assert ok(server.call("check"))["consistent"] is True
    assert ok(server.call("math", operation="diff", expr="x**3", wrt="x"))["result"] == "3*x**2"
    gone = ok(server.call("forget", items="parent_of(ann, _)"))
    assert [r["text"] for r in gone["removed"]] == ["parent_of(ann, ben)."]
    assert ok(server.call("query", goal="grandparent_of(ann, cy)"))["truth"] == "false"


def test_an_smt_lib_program_is_refuted_with_its_counter_model(server, place):
    program = (place["work"] / "pets.smt2").read_text()
    proved = ok(server.call("prove", program=program))
    verdicts = {v["name"]: v for v in proved["verifications"]}
    assert verdicts["Tom is a mammal"]["status"] == "proved"
    fish = verdicts["Tom is a fish"]
    assert fish["status"] == "refuted" and fish["counter_model"]["fish(tom)"] in (False, "False")
    shown, data = server.read("sym://program")
    assert "(check-sat-assuming" in shown and "counter-model" in shown
    assert json.loads(data)["report"]["verifications"][1]["status"] == "refuted"
    # the program was written inside the workspace, named by its content; a file in the work folder reads too
    assert list((place["home"] / "workspaces" / WORKSPACE / "mcp").glob("program-*.smt2"))
    assert ok(server.call("prove", file="pets.smt2"))["verifications"][0]["status"] == "proved"
    refused(server.call("prove", program=program, question="Is Tom a fish?"), "one of")


def test_a_bad_clause_and_bad_arguments_are_tool_errors_with_one_line_and_a_hint(server):
    bad = server.call("fact", clauses="p(.")
    refused(bad, "column")
    assert bad.structured_content["hint"] and text(bad).startswith("error: ")
    refused(server.call("query", goal="p(X)", depth=3), "unknown argument 'depth'")
    refused(server.call("ask", question="Is Bob red?", max_steps="two"), "max_steps", "integer")
    refused(server.call("ask", question="Is Bob red?", max_steps=-1), "at least 0")
    refused(server.call("ask"), "question", "needed")
    refused(server.call("extract", text="Ada was born in London.", into="born_in/2"))   # no model: one line
    refused(server.call("listing", pred="p --derived"), "read as an option")


def test_an_argument_cannot_smuggle_an_option_or_a_second_command(server, place):
    refused(server.call("tell", text="--from ../outside/secret.md"), "read as an option")
    refused(server.call("ask", question="Is Bob red?\n/set ollama_host http://evil"), "one line")
    refused(server.call("query", goal="p(X).\n/consult ../outside/secret.pl"), "one line")
    clause = server.call("fact", clauses="q(a).\n/consult ../outside/secret.pl")
    assert clause.is_error                                   # read as logic text: a parse error, nothing run
    assert "secret" not in server.read("sym://memory")[0]


def test_file_arguments_are_read_only_inside_the_allowed_folders(server, place):
    consulted = ok(server.call("consult", file="family.pl"))
    assert consulted["source"] == "family.pl" and consulted["added"]
    assert ok(server.call("load", file="notes.md"))["message"].startswith("loaded")
    hits = ok(server.call("search", text="automobile wheels", kind="docs", k=2))["hits"]   # by keyword at once
    assert hits and hits[0]["source"] == "notes.md" and "four wheels" in hits[0]["text"]
    outside = place["outside"]
    refused(server.call("consult", file=str(outside / "secret.pl")), "outside the folders")
    refused(server.call("consult", file="../outside/secret.pl"), "outside the folders")
    refused(server.call("consult", file="link.pl"), "outside the folders")      # a link out of the folder
    refused(server.call("load", file=str(outside)), "outside the folders")
    refused(server.call("load", file=str(outside / "*.md")), "outside the folders")
    refused(server.call("load", file=f"'{outside / 'secret.md'}'"), "outside the folders")   # /load unquotes
    refused(server.call("tell", file=str(outside / "secret.md")), "outside the folders")
    refused(server.call("extract", into="code/1", file=f"'{outside / 'secret.md'}'"), "outside the folders")
    refused(server.call("prove", file=str(outside / "secret.pl")), "outside the folders")
    memory = server.read("sym://memory")[0]
    assert "secret" not in memory and "person(joshua)" in memory


# -- cancel --------------------------------------------------------------------------------------

async def _cancel_infer(session) -> tuple[list, float, object]:
    """Start /infer, cancel it once the server says it runs, and time the next answer."""
    running = anyio.Event()
    finished: list = []

    async def progress(done, total, message) -> None:
        if message and "/infer" in message:
            running.set()

    with anyio.fail_after(120):
        async with anyio.create_task_group() as tg:
            scope = anyio.CancelScope()

            async def call() -> None:
                with scope:
                    finished.append(await session.call_tool("infer", {}, progress_callback=progress))

            tg.start_soon(call)
            await running.wait()
            cancelled_at = time.monotonic()
            scope.cancel()                          # the SDK sends notifications/cancelled
        after = await session.call_tool("query", {"goal": "n(7)"})
    return finished, time.monotonic() - cancelled_at, after


def test_a_cancel_stops_a_long_inference_and_the_server_answers_on(server):
    ok(server.call("fact", clauses=" ".join(f"n({i})." for i in range(500))))
    rule = ok(server.call("rule", clauses="t(X) :- n(X), n(Y), n(Z), X < Y, Y < Z, Z < X."))["added"][0]["id"]
    try:
        finished, seconds, after = server.run(_cancel_infer)
        assert finished == []                       # 125 million joined rows: a minute or more uncancelled
        assert ok(after)["truth"] == "true"
        assert seconds < 20, seconds
        outputs = [json.loads(line) for line in server.read("sym://session")[0].splitlines()]
        last_infer = [e for e in outputs if e["t"] == "output" and e["result"].get("command") == "/infer"][-1]
        assert last_infer["result"]["ok"] is False and last_infer["result"]["error"] == "cancelled"
    finally:
        ok(server.call("forget", items=rule))


# -- resources, the session log, one workspace per server ----------------------------------------

def test_resources_show_memory_schema_and_the_session_log(server):
    listing, data = server.read("sym://memory")
    assert "red(X) :- big(X)." in listing and any(it["text"] == "big(bob)." for it in json.loads(data)["items"])
    schema, _ = server.read("sym://schema")
    assert "grandparent_of/2" in schema
    events = [json.loads(line) for line in server.read("sym://session")[0].splitlines()]
    inputs = [e for e in events if e["t"] == "input"]
    assert {"text": "/tell Bob is big. If something is big then it is red.", "source": "mcp"}.items() <= \
        inputs[0].items()
    assert "sym: refused a call of consult: " in server.stderr()   # never run, so never in the session log


def test_a_second_server_on_the_same_workspace_is_refused(server, sym_exe, place):
    env = dict(os.environ, SYM_HOME=str(place["home"]), SYM_CONFIG=str(place["home"] / "config.toml"))
    proc = subprocess.run([*sym_exe, "mcp", "--memory", WORKSPACE], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, env=env, cwd=place["work"], timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "workspace" in proc.stderr and "in use" in proc.stderr and "Traceback" not in proc.stderr


def test_read_only_serves_no_change_and_its_session_replays_offline(sym_exe, tmp_path):
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    with Client(sym_exe, home, work, "--read-only") as client:
        names = {t.name for t in client.run(lambda s: s.list_tools()).tools}
        assert names == READS
        refused(client.call("fact", clauses="p(a)."), "unknown tool 'fact'")
        refused(client.call("query", goal="p(X)"), "unknown predicate")
        assert ok(client.call("math", operation="factor", expr="x**2 - 1"))["result"] == "(x - 1)*(x + 1)"
        assert ok(client.call("listing"))["items"] == []
        assert client.read("sym://memory")[0] == "memory is empty"
    (log,) = (home / "sessions").glob("*.jsonl")
    env = dict(os.environ, SYM_HOME=str(tmp_path / "replay-home"))
    proc = subprocess.run([*sym_exe, "replay", str(log), "--verify", "--offline"], capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "replayed 3 commands" in proc.stderr and "equal" in proc.stderr


def test_a_read_only_memory_refuses_every_change():
    from sym.repl.dispatcher import Shell
    from sym.repl.mcp.resources import refuse_changes

    shell = Shell(plugins=False)
    shell.execute("/fact p(a).")
    refuse_changes(shell.memory)
    failed = shell.execute("/fact q(a).")[1]
    assert not failed.ok and "read-only" in failed.message
    assert not shell.execute("/forget p(a)")[1].ok and sorted(it.text for it in shell.memory.items.values()) == ["p(a)."]


def test_the_top_level_model_and_host_reach_the_served_shell(sym_exe, tmp_path, ollama_server):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text("")
    with Client([*sym_exe, "--model", "qwen2.5:0.5b", "--ollama-host", ollama_server.url], home, tmp_path,
                "--memory", "given") as client:
        client.call("tell", text="Bob has arrived.")     # the grammar refuses it: the model is asked
        assert "Traceback" not in client.stderr(), client.stderr()
    assert ollama_server.chats and {r.model for r in ollama_server.chats} == {"qwen2.5:0.5b"}
