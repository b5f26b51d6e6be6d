"""/explore never says the topic holds when the model's reply about it is empty or garbage."""

from __future__ import annotations

import pytest

from sym.repl.dispatcher import Shell
from sym.repl.render import to_text


@pytest.mark.parametrize("reply", ["", "   \n\n", "!!! ### ???\n---\n***", "{}", "<html><body>500</body></html>"])
def test_an_empty_or_garbage_reply_leaves_the_topic_unknown(ollama_server, reply):
    ollama_server.default = reply
    shell = Shell()
    shell.ctx.settings.ollama_host = ollama_server.url
    result = shell.execute("/explore causes of inflation --depth 1")[1]
    assert result.ok, result
    data = result.to_dict()
    assert data["top_holds"] is False and data["status"].startswith("unknown")
    text = to_text(result)
    assert "holds" not in text.replace("does not hold", "") and "unknown" in text
    assert not shell.execute("/explore --add")[1].to_dict().get("items")   # nothing to add either
