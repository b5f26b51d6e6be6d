"""Reading policies.yaml safely: a YAML loader that builds only JSON's types.

No timestamps, sets, binary or custom tags; integers of at most MAX_INT_DIGITS digits; at most
MAX_DEPTH levels of nesting; at most MAX_NODES values once every alias is expanded (an alias
counts the whole of what it names each time it is used, so an "alias bomb" is refused before
anything walks it). Values are built straight from the parser's events in one pass (libyaml's
parser where PyYAML has it): time is linear in the file. Every problem is one UserError naming
the file and, where YAML knows it, the line and column. Nothing here is evaluated or imported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from sym.core.errors import UserError

if TYPE_CHECKING:
    import yaml

MAX_DEPTH = 20          # nesting levels a policies.yaml may have
MAX_INT_DIGITS = 100
MAX_NODES = 1_000_000   # values after alias expansion (10,000 rules use about 200,000)

_MAP, _SEQ = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_MERGE, _VALUE, _STR = "tag:yaml.org,2002:merge", "tag:yaml.org,2002:value", "tag:yaml.org,2002:str"
_LOADER: type | None = None


def _loader() -> type[yaml.SafeLoader]:
    """A YAML loader for JSON's types only: strings, numbers, true/false/null, lists, mappings."""
    global _LOADER
    if _LOADER is not None:
        return _LOADER
    import yaml

    base = yaml.CSafeLoader if getattr(yaml, "__with_libyaml__", False) else yaml.SafeLoader

    class Loader(base):  # type: ignore[misc,valid-type]
        pass

    def refuse(loader: yaml.SafeLoader, node: yaml.Node) -> NoReturn:
        raise yaml.constructor.ConstructorError(None, None, f"the tag {node.tag} is not allowed here "
                                                "(use plain text, numbers, true/false, lists and mappings)",
                                                node.start_mark)

    def integer(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
        digits = sum(ch.isdigit() for ch in str(node.value))
        if digits > MAX_INT_DIGITS:
            raise yaml.constructor.ConstructorError(None, None, f"a number of {digits} digits is too long",
                                                    node.start_mark)
        return yaml.SafeLoader.construct_yaml_int(loader, node)

    def real(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> float:
        try:
            return yaml.SafeLoader.construct_yaml_float(loader, node)
        except (ValueError, IndexError):
            raise yaml.constructor.ConstructorError(None, None, f"{str(node.value)[:40]!r} is not a number",
                                                    node.start_mark) from None

    for tag in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:binary", "tag:yaml.org,2002:set",
                "tag:yaml.org,2002:omap", "tag:yaml.org,2002:pairs"):
        Loader.add_constructor(tag, refuse)
    Loader.add_constructor("tag:yaml.org,2002:int", integer)
    Loader.add_constructor("tag:yaml.org,2002:float", real)
    Loader.add_constructor(None, refuse)
    # plain scalars that look like dates stay text ("2024-01-01" is a string, as in JSON)
    Loader.yaml_implicit_resolvers = {k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:timestamp"]
                                      for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}
    _LOADER = Loader
    return Loader


class _Too(Exception):
    """Nesting or expansion past a limit (turned into one line by load_yaml)."""


class _Open:
    """A list or mapping being built: its value, anchor, depth, expanded size and pending key."""

    __slots__ = ("value", "anchor", "depth", "size", "height", "key", "merges", "mark")

    def __init__(self, value: Any, anchor: str | None, depth: int, mark: Any) -> None:
        self.value, self.anchor, self.depth, self.mark = value, anchor, depth, mark
        self.size, self.height, self.key = 1, 1, _NO_KEY
        self.merges: list[dict[Any, Any]] | None = None


_NO_KEY = object()
_MERGE_KEY = object()


def _build(text: str) -> object:
    """The document's value, built from parser events with aliases shared, not copied.

    anchors hold (value, expanded size, height); `total` counts every value an alias brings in."""
    import yaml
    from yaml.composer import ComposerError
    from yaml.constructor import ConstructorError
    from yaml.events import (
        AliasEvent,
        DocumentStartEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
        SequenceStartEvent,
        StreamEndEvent,
    )

    loader = _loader()(text)
    constructors: dict[Any, Any] = loader.yaml_constructors
    scalars: dict[str, tuple[Any, str]] = {}          # plain scalars seen before: (value, tag)
    anchors: dict[str, tuple[Any, int, int]] = {}
    stack: list[_Open] = []
    total, documents, result = 0, 0, None

    def place(value: Any, size: int, height: int, mark: Any, *, key_tag: str | None = None) -> None:
        nonlocal result
        if not stack:
            result = value
            return
        top = stack[-1]
        top.size += size
        if top.depth + height > MAX_DEPTH:
            raise _Too("nested")
        top.height = max(top.height, height + 1)
        if isinstance(top.value, list):
            top.value.append(value)
        elif top.key is _NO_KEY:
            if key_tag == _MERGE:
                top.key = _MERGE_KEY
            elif isinstance(value, (list, dict)):
                raise ConstructorError("while constructing a mapping", top.mark, "found unhashable key", mark)
            else:
                top.key = value
        elif top.key is _MERGE_KEY:
            sources = value if isinstance(value, list) else [value]
            if not all(isinstance(m, dict) for m in sources):
                raise ConstructorError("while constructing a mapping", top.mark,
                                       "expected a mapping or list of mappings for merging", mark)
            top.merges = [*(top.merges or []), *sources]
            top.key = _NO_KEY
        else:
            top.value[top.key] = value
            top.key = _NO_KEY

    def remember(anchor: str | None, value: Any, size: int, height: int, mark: Any) -> None:
        if anchor is None:
            return
        if anchor in anchors:
            raise ComposerError(None, None, f"found duplicate anchor {anchor!r}", mark)
        anchors[anchor] = (value, size, height)

    try:
        while True:
            event = loader.get_event()  # type: ignore[no-untyped-call]
            kind = type(event)
            if kind is ScalarEvent:
                total += 1
                tag, value = event.tag, event.value
                if tag is None or tag == "!":
                    if not event.implicit[0]:        # quoted or block text: always a string
                        built, tag = value, _STR
                    else:
                        cached = scalars.get(value)
                        if cached is None:
                            tag = loader.resolve(yaml.ScalarNode, value, event.implicit)  # type: ignore[no-untyped-call]
                            if tag in (_MERGE, _VALUE):
                                built = value
                            else:
                                node = yaml.ScalarNode(tag, value, event.start_mark, event.end_mark, event.style)
                                built = constructors.get(tag, constructors[None])(loader, node)
                                scalars[value] = (built, tag)
                        else:
                            built, tag = cached
                else:
                    node = yaml.ScalarNode(tag, value, event.start_mark, event.end_mark, event.style)
                    built = constructors.get(tag, constructors[None])(loader, node)
                if tag == _MERGE or tag == _VALUE:    # `<<` and `=` mean something only as a key
                    if not (stack and isinstance(stack[-1].value, dict) and stack[-1].key is _NO_KEY):
                        node = yaml.ScalarNode(tag, value, event.start_mark, event.end_mark, event.style)
                        constructors[None](loader, node)
                if event.anchor is not None:
                    remember(event.anchor, built, 1, 0, event.start_mark)
                top = stack[-1] if stack else None
                if top is not None and tag != _MERGE and top.key is not _MERGE_KEY:   # the common case
                    top.size += 1
                    if top.value.__class__ is list:
                        top.value.append(built)
                    elif top.key is _NO_KEY:
                        top.key = built
                    else:
                        top.value[top.key] = built
                        top.key = _NO_KEY
                else:
                    place(built, 1, 0, event.start_mark, key_tag=tag)
            elif kind is SequenceStartEvent or kind is MappingStartEvent:
                total += 1
                default = _SEQ if kind is SequenceStartEvent else _MAP
                if event.tag not in (None, "!", default):
                    node = yaml.ScalarNode(event.tag, "", event.start_mark, event.end_mark)
                    constructors[None](loader, node)
                depth = len(stack) + 1
                if depth > MAX_DEPTH:
                    raise _Too("nested")
                if event.anchor is not None and event.anchor in anchors:
                    raise ComposerError(None, None, f"found duplicate anchor {event.anchor!r}", event.start_mark)
                stack.append(_Open([] if kind is SequenceStartEvent else {}, event.anchor, depth,
                                   event.start_mark))
            elif kind is SequenceEndEvent or kind is MappingEndEvent:
                done = stack.pop()
                value = done.value
                if done.merges:
                    merged: dict[Any, Any] = {}
                    for source in done.merges:
                        for k, v in source.items():
                            merged.setdefault(k, v)
                    merged.update(value)
                    value = merged
                remember(done.anchor, value, done.size, done.height, done.mark)
                place(value, done.size, done.height, done.mark)
            elif kind is AliasEvent:
                if event.anchor not in anchors:
                    if any(o.anchor == event.anchor for o in stack):
                        raise ComposerError(None, None, f"the alias {event.anchor!r} refers to itself",
                                            event.start_mark)
                    raise ComposerError(None, None, f"found undefined alias {event.anchor!r}", event.start_mark)
                value, size, height = anchors[event.anchor]
                total += size
                if total > MAX_NODES:
                    raise _Too(f"{event.start_mark.line + 1}:{event.start_mark.column + 1}")
                place(value, size, height, event.start_mark)
            elif kind is DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise ComposerError("expected a single document in the stream", None,
                                        "but found another document", event.start_mark)
                anchors.clear()
            elif kind is StreamEndEvent:
                return result
            if total > MAX_NODES:
                raise _Too("")
    finally:
        loader.dispose()


def load_yaml(text: str, *, source: str = "policies.yaml") -> object:
    """The data in a policies file; any problem is one UserError naming the file (and place)."""
    import yaml

    hint = "fix the file; the previous policies stay in force"
    try:
        return _build(text)
    except _Too as err:
        if str(err) == "nested":
            raise UserError(f"{source}: nested more than {MAX_DEPTH} levels deep", hint=hint) from None
        where = f"{source}:{err}" if str(err) else source
        raise UserError(f"{where}: aliases expand to more than {MAX_NODES:,} values (an alias bomb?)",
                        hint=hint) from None
    except yaml.YAMLError as err:
        if "maximum nesting depth" in str(getattr(err, "problem", "")):    # libyaml's own limit, past ours
            raise UserError(f"{source}: nested more than {MAX_DEPTH} levels deep", hint=hint) from None
        mark = getattr(err, "problem_mark", None)
        where = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark else source
        problem = " ".join(str(getattr(err, "problem", None) or "not valid YAML").split())
        raise UserError(f"{where}: {problem}", hint=hint) from None
    except RecursionError:
        raise UserError(f"{source}: nested more than {MAX_DEPTH} levels deep", hint=hint) from None
    except (ValueError, TypeError, IndexError, AttributeError, OverflowError) as err:
        raise UserError(f"{source}: cannot read it ({type(err).__name__})", hint=hint) from None
