"""`sym mcp --http`: one server, many clients of one workspace over Streamable HTTP. Two clients tell
and ask at once and every fact is kept, each seeing the other's; a subscribed client hears
resources/updated after the other's change (by resources/subscribe, or on 2026-07-28 a
subscriptions/listen stream); a bearer token and the Origin header are checked and the
token is never written; a public address without a token is refused in one line. Tests wait for
replies and notifications, never for fixed times.
"""

from __future__ import annotations

import subprocess
import threading

import httpx
import pytest

from tests.mcp.clients import GUARD, Agent, HttpServer, env

TOKEN = "s3cret-token-for-tests-only"


@pytest.fixture
def place(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text("")
    return home, tmp_path


async def burst(client, who: str, count: int) -> list:
    """`count` fact calls sent at once, then a query of everything told."""
    import anyio

    results: list = []

    async def one(i: int) -> None:
        results.append(await client.call_tool("fact", {"clauses": f"told({who}, {i})."}))

    async with anyio.create_task_group() as tg:
        for i in range(count):
            tg.start_soon(one, i)
    return results


def test_two_clients_telling_and_asking_at_once_keep_every_fact_and_see_each_others(sym_exe, place):
    home, work = place
    server = HttpServer(sym_exe, home, work, "--memory", "shared")
    try:
        with Agent(server.url, cwd=work) as a, Agent(server.url, mode="2026-07-28", cwd=work) as b:
            done: dict[str, list] = {}
            threads = [threading.Thread(target=lambda who=who, agent=agent: done.__setitem__(who, agent.run(
                burst, who, 15))) for who, agent in (("a", a), ("b", b))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(GUARD)
            assert all(not r.is_error for rs in done.values() for r in rs), done
            for agent in (a, b):
                rows = agent.call("query", goal="told(W, N)").structured_content["bindings"]
                assert sorted((r["W"], r["N"]) for r in rows) == sorted((w, i) for w in "ab" for i in range(15))
            assert b.call("query", goal="told(a, 7)").structured_content["truth"] == "true"
            assert a.call("query", goal="told(b, 14)").structured_content["truth"] == "true"
    finally:
        server.close()
    assert "Traceback" not in server.stderr(), server.stderr()


@pytest.mark.filterwarnings("ignore:resources/subscribe is removed")
def test_a_subscribed_client_hears_of_the_other_clients_change(sym_exe, place):
    home, work = place
    server = HttpServer(sym_exe, home, work, "--memory", "heard")
    heard = threading.Event()

    async def on_message(message) -> None:
        inner = getattr(message, "root", message)
        if getattr(inner, "method", None) == "notifications/resources/updated" and \
                str(inner.params.uri) == "sym://memory":
            heard.set()

    try:
        with Agent(server.url, cwd=work, on_message=on_message) as a, Agent(server.url, cwd=work) as b:
            a.run(lambda c: c.subscribe_resource("sym://memory"))
            assert not b.call("fact", clauses="news(today).").is_error
            assert heard.wait(GUARD)
            memory = a.run(lambda c: c.read_resource("sym://memory")).contents[0].text
            assert "news(today)." in memory
    finally:
        server.close()


def test_a_bearer_token_and_the_origin_are_checked_and_the_token_never_written(sym_exe, place):
    home, work = place
    server = HttpServer(sym_exe, home, work, "--memory", "guarded", SYM_MCP_TOKEN=TOKEN)
    try:
        hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                 "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                            "clientInfo": {"name": "raw", "version": "1"}}}
        accept = {"accept": "application/json, text/event-stream"}
        assert httpx.post(server.url, json=hello, headers=accept, timeout=GUARD).status_code == 401
        wrong = httpx.post(server.url, json=hello, headers={**accept, "authorization": "Bearer nope"}, timeout=GUARD)
        assert wrong.status_code == 401 and TOKEN not in wrong.text
        evil = httpx.post(server.url, json=hello, timeout=GUARD,
                          headers={**accept, "authorization": f"Bearer {TOKEN}", "origin": "http://evil.example"})
        assert evil.status_code == 403
        with Agent(server.url, cwd=work, headers={"Authorization": f"Bearer {TOKEN}"}) as agent:
            assert not agent.call("fact", clauses="kept(yes).").is_error
    finally:
        server.close()
    assert TOKEN not in server.stderr()
    for log in (home / "sessions").glob("*.jsonl"):
        assert TOKEN not in log.read_text()


def test_a_public_address_without_a_token_is_refused_in_one_line(sym_exe, place):
    home, work = place
    proc = subprocess.run([*sym_exe, "mcp", "--http", "0.0.0.0:0", "--memory", "open"], capture_output=True,
                          text=True, env=env(home), cwd=work, stdin=subprocess.DEVNULL, timeout=GUARD)
    assert proc.returncode == 2 and "needs a bearer token" in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    bad = subprocess.run([*sym_exe, "mcp", "--http", "localhost:http"], capture_output=True, text=True,
                         env=env(home), cwd=work, stdin=subprocess.DEVNULL, timeout=GUARD)
    assert bad.returncode == 2 and "HOST:PORT" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.parametrize("teller", ["legacy", "2026-07-28"])
def test_a_2026_client_listening_to_memory_hears_of_the_other_clients_change(sym_exe, place, teller):
    import anyio
    from mcp.client.subscriptions import ResourceUpdated

    home, work = place
    server = HttpServer(sym_exe, home, work, "--memory", "listened")

    try:
        with Agent(server.url, mode="2026-07-28", cwd=work) as a, Agent(server.url, mode=teller, cwd=work) as b:
            async def listen(client):
                async with client.listen(resource_subscriptions=["sym://memory"]) as sub:
                    assert sub.honored.resource_subscriptions == ["sym://memory"]
                    told = await anyio.to_thread.run_sync(lambda: b.call("fact", clauses="news(today)."))
                    assert not told.is_error
                    with anyio.fail_after(GUARD):
                        return await sub.__anext__(), await client.read_resource("sym://memory")

            event, memory = a.run(listen)
            assert event == ResourceUpdated(uri="sym://memory")
            assert "news(today)." in memory.contents[0].text
    finally:
        server.close()
    assert "Traceback" not in server.stderr(), server.stderr()


def test_a_server_that_stops_ends_the_open_listen_streams_gracefully(sym_exe, place):
    import anyio

    home, work = place
    server = HttpServer(sym_exe, home, work, "--memory", "stopping")
    try:
        with Agent(server.url, mode="2026-07-28", cwd=work) as a:
            async def listen(client):
                async with client.listen(resource_subscriptions=["sym://memory"]) as sub:
                    server.proc.terminate()
                    await anyio.to_thread.run_sync(lambda: server.proc.wait(GUARD))
                    with anyio.fail_after(GUARD):
                        return [event async for event in sub]      # ends: the server's graceful close

            assert a.run(listen) == []
    finally:
        server.close()
    assert "Traceback" not in server.stderr(), server.stderr()
