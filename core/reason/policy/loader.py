"""Reading policies.yaml safely: a YAML loader that builds only JSON's types.

No timestamps, sets, binary or custom tags; integers of at most MAX_INT_DIGITS digits; at most
MAX_DEPTH levels of nesting. Every problem is one UserError naming the file and, where YAML
knows it, the line and column. Nothing here is evaluated or imported by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

from sym.core.errors import UserError

if TYPE_CHECKING:
    import yaml

MAX_DEPTH = 20          # nesting levels a policies.yaml may have
MAX_INT_DIGITS = 100


def _loader() -> type[yaml.SafeLoader]:
    """A YAML loader for JSON's types only: strings, numbers, true/false/null, lists, mappings."""
    import yaml

    class Loader(yaml.SafeLoader):
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
    return Loader


def _depth(data: object) -> int:
    """How deeply lists and mappings nest in `data` (iteratively: no recursion to run out of)."""
    best, stack = 0, [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (list, dict)):
            best = max(best, depth)
            if depth <= MAX_DEPTH:
                stack.extend((v, depth + 1) for v in (value.values() if isinstance(value, dict) else value))
    return best


def load_yaml(text: str, *, source: str = "policies.yaml") -> object:
    """The data in a policies file; any problem is one UserError naming the file (and place)."""
    import yaml

    hint = "fix the file; the previous policies stay in force"
    try:
        data = yaml.load(text, Loader=_loader())   # noqa: S506 (a SafeLoader subclass)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark else source
        problem = getattr(err, "problem", None) or "not valid YAML"
        raise UserError(f"{where}: {problem}", hint=hint) from None
    except RecursionError:
        raise UserError(f"{source}: nested more than {MAX_DEPTH} levels deep", hint=hint) from None
    except (ValueError, TypeError, IndexError, AttributeError, OverflowError) as err:
        raise UserError(f"{source}: cannot read it ({type(err).__name__})", hint=hint) from None
    if _depth(data) > MAX_DEPTH:
        raise UserError(f"{source}: nested more than {MAX_DEPTH} levels deep", hint=hint)
    return data
