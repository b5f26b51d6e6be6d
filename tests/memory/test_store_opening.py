"""Opening a workspace's vector store from two threads at once (the background writer draining
what an earlier run left, and a /search) opens one sound store, real Chroma: chromadb registers a
half-started client that the second thread used to take ("'RustBindingsAPI' object has no
attribute 'bindings'; run: sym repair")."""

from __future__ import annotations

import threading

from sym.core.memory.workspace import open_workspace


def test_two_threads_opening_the_vector_store_together_both_get_it(sym_home):
    ws = open_workspace("race", background=False)
    try:
        ready = threading.Barrier(4)
        failures: list[str] = []
        stores: list[object] = []

        def open_it() -> None:
            ready.wait()
            try:
                stores.append(ws.store.vectors)
                stores[-1].count("facts")
            except Exception as err:  # noqa: BLE001 - what a thread met is the test's finding
                failures.append(f"{type(err).__name__}: {err}")

        threads = [threading.Thread(target=open_it) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
        assert len({id(store) for store in stores}) == 1     # one store, opened once
    finally:
        ws.close()
