"""The command palette's provider: one entry per registry command (Ctrl+P).

Choosing a command that takes no arguments runs it; one that does is put in the input line.
"""

from __future__ import annotations

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content


def _literal(matcher, text: str) -> Content:
    """`text` highlighted where the query matched, shown as written: usages such as
    `/explore show [N]` are not markup (Matcher.highlight would read `[N]` as a style)."""
    content = Content(text)
    score, offsets = matcher.fuzzy_search.match(matcher.query, text)
    for offset in offsets if score else ():
        if not text[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


class RegistryCommands(Provider):
    def _commands(self):
        shell = getattr(self.app, "shell", None)
        registry = shell.registry if shell is not None else None
        return sorted(registry.commands.values(), key=lambda c: c.name) if registry is not None else []

    def _pick(self, cmd):
        return lambda: self.app.choose_command(cmd)

    async def discover(self) -> Hits:
        for cmd in self._commands():
            yield DiscoveryHit(Content(cmd.usage), self._pick(cmd), text=cmd.usage, help=cmd.summary)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for cmd in self._commands():
            score = max(matcher.match(cmd.usage), *(matcher.match(a) for a in cmd.aliases)) if cmd.aliases \
                else matcher.match(cmd.usage)
            if score > 0:
                yield Hit(score, _literal(matcher, cmd.usage), self._pick(cmd), text=cmd.usage, help=cmd.summary)
