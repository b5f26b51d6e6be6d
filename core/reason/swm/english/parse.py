"""Sentences → every parse tree the grammar allows (its readings), fast.

The grammar sees token types only (lexicon.py), so the trees of a sentence depend on its
shape, not its words: they are parsed once per shape (Earley, all ambiguities kept) and
cached, in memory and between processes (shapecache.py); each leaf holds the index of its
word. The cost per sentence is then a dictionary look-up, and one Earley parse per shape no
process has parsed before, of bounded length — linear in the text.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from sym.core.reason.swm.english.lexicon import Word

if TYPE_CHECKING:
    from lark import Lark, Token, Tree
    from lark.common import LexerConf
    from lark.grammar import Rule, Symbol
    from lark.lexer import LexerState

MAX_WORDS = 40          # longer sentences are outside the fragment (Earley time grows fast with
MAX_JOINS = 8           # coordination: 10 "and"s can take ~0.7 s of Earley, 8 take ~0.06 s)
MAX_READINGS = 64       # more readings than this: too ambiguous to be controlled English
FORMAT = 1              # of the readings kept between processes (shapecache.py): bump when their meaning changes
MAX_AMBIGUITIES = 12    # ambiguous spots in one parse forest beyond which a shape is refused unparsed


@lru_cache(maxsize=1)
def _grammar() -> str:
    return (Path(__file__).with_name("grammar.lark")).read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _key() -> str:
    from sym.core.reason.swm.english.shapecache import key_of

    return key_of(_grammar(), FORMAT, MAX_READINGS, MAX_AMBIGUITIES)


@lru_cache(maxsize=1)
def _parser() -> Lark:
    from lark import Lark
    from lark.lexer import Lexer, Token

    class _Feed(Lexer):
        """Tokens come typed already: `text` is a tuple of terminal names."""

        def __init__(self, lexer_conf: LexerConf) -> None:
            pass

        def lex(self, data: LexerState | tuple[str, ...], *_: Any) -> Iterator[Token]:
            shape = cast("tuple[str, ...]", getattr(data, "text", data))   # the input, or a LexerState holding it
            for i, typ in enumerate(shape):
                yield Token(typ, i)

    return Lark(_grammar(), parser="earley", lexer=_Feed, ambiguity="explicit", propagate_positions=False)


@lru_cache(maxsize=8192)
def _readings(shape: tuple[str, ...]) -> tuple[Node, ...]:
    """All parse trees for a shape (tuple of token types); () when it has none or too many.
    Shapes parsed by an earlier process come from its kept readings (shapecache.py), checked."""
    from sym.core.reason.swm.english import shapecache

    kept = shapecache.store(_key())
    entry = kept.get(shape)
    if entry is not None:
        try:
            return _checked(entry, shape)
        except (ValueError, RecursionError):
            kept.drop(shape)
    plain = _parse(shape)
    kept.put(shape, json.dumps(plain, separators=(",", ":")))
    return tuple(_node(item, shape) for item in plain)


def _parse(shape: tuple[str, ...]) -> list[Any]:
    """The readings of a shape as plain lists (see _plain), by an Earley parse."""
    from lark.exceptions import LarkError
    from lark.visitors import CollapseAmbiguities

    try:
        tree = _parser().parse(shape)
    except LarkError:
        return []
    if _ambiguities(tree) > MAX_AMBIGUITIES:
        return []
    trees = CollapseAmbiguities().transform(tree)
    return [_plain(t) for t in trees] if len(trees) <= MAX_READINGS else []


class Tok:
    """A leaf of a reading: its token type and the index of its word (as a lark Token would say)."""

    __slots__ = ("type", "value")

    def __init__(self, type: str, value: int) -> None:
        self.type, self.value = type, value

    def __repr__(self) -> str:
        return f"Tok({self.type!r}, {self.value})"


class Node:
    """A parse-tree node, flattened once per shape so that reading it is cheap: `kids` are the
    child nodes, `toks` the child tokens (type, value = word index), `leaves` every word index."""

    __slots__ = ("data", "kids", "toks", "leaves")

    def __init__(self, data: str, kids: tuple[Node, ...], toks: tuple[Tok, ...], leaves: tuple[int, ...]) -> None:
        self.data, self.kids, self.toks, self.leaves = data, kids, toks, leaves


def _plain(tree: Tree[Token]) -> list[Any]:
    """A lark tree as [label, child, …], a child being a word index or a nested list: JSON, and
    all a Node needs (a token's type is the shape's at its index)."""
    from lark import Token

    return [str(tree.data), *(c.value if isinstance(c, Token) else _plain(c) for c in tree.children)]


def _node(item: list[Any], shape: tuple[str, ...]) -> Node:
    kids: list[Node] = []
    toks: list[Tok] = []
    leaves: list[int] = []
    for child in item[1:]:
        if type(child) is int:
            toks.append(Tok(shape[child], child))
            leaves.append(child)
        else:
            kid = _node(child, shape)
            kids.append(kid)
            leaves.extend(kid.leaves)
    return Node(item[0], tuple(kids), tuple(toks), tuple(leaves))


def _checked(entry: Any, shape: tuple[str, ...]) -> tuple[Node, ...]:
    """Nodes of readings kept as JSON text by an earlier process — or by anyone: the file is not
    trusted. ValueError unless each is a tree this grammar derives, over the shape's words in order."""
    if type(entry) is not str or len(entry) > 1 << 16:
        raise ValueError("not the JSON text of readings")
    plain = json.loads(entry)
    if type(plain) is not list or len(plain) > MAX_READINGS:
        raise ValueError("not a list of readings")
    grammar = _derivations()
    words = tuple(i for i, typ in enumerate(shape) if typ not in grammar.dropped)
    out = []
    for item in plain:
        _check(item, shape, grammar, 0)
        node = _node(item, shape)
        if node.leaves != words:
            raise ValueError("not every word once, in order")
        out.append(node)
    return tuple(out)


def _check(item: Any, shape: tuple[str, ...], grammar: _Derivations, depth: int) -> None:
    if depth > 2 * MAX_WORDS or type(item) is not list or not item or type(item[0]) is not str:
        raise ValueError("not a reading")
    children: list[tuple[bool, str]] = []
    for child in item[1:]:
        if type(child) is int:
            if not 0 <= child < len(shape):
                raise ValueError("no such word")
            children.append((True, shape[child]))
        else:
            _check(child, shape, grammar, depth + 1)
            children.append((False, child[0]))
    if not grammar.derives(item[0], tuple(children)):
        raise ValueError(f"the grammar gives no {item[0]} of these children")


@lru_cache(maxsize=1)
def _derivations() -> _Derivations:
    return _Derivations(_parser().rules)


class _Derivations:
    """Which children each node of a tree may have, from lark's compiled rules and the way lark
    builds trees: a `_rule` (lark's `__x_star` helpers too) is spliced into its parent, a `?rule`
    with one child is replaced by that child, `_TOKEN`s are dropped. It may refuse a strange tree
    lark could build (that shape is then parsed again), never accepts one it could not."""

    def __init__(self, rules: list[Rule]) -> None:
        self.rules: dict[str, list[Rule]] = {}       # by the symbol they expand
        self.named: dict[str, list[Rule]] = {}       # by the label of the node they build
        for rule in rules:
            self.rules.setdefault(rule.origin.name, []).append(rule)
            label = rule.alias or rule.origin.name
            if not label.startswith("_"):
                self.named.setdefault(label, []).append(rule)
        self.labels = {name: {r.alias or name for r in rs} for name, rs in self.rules.items()}
        self.dropped = {s.name for r in rules for s in r.expansion if _dropped(s, r)}
        self._known: dict[tuple[str, tuple[tuple[bool, str], ...]], bool] = {}

    def derives(self, label: str, children: tuple[tuple[bool, str], ...]) -> bool:
        """Whether a node `label` may have these children ((is a token, type or label), …)."""
        key = (label, children)
        if key not in self._known:
            spans: dict[tuple[Any, int], set[int]] = {}
            self._known[key] = any(len(children) in self._ends(r, 0, children, spans) for r in self.named.get(label, ()))
        return self._known[key]

    def _ends(self, rule: Rule, start: int, children: tuple[tuple[bool, str], ...],
              spans: dict[tuple[Any, int], set[int]]) -> set[int]:
        """Where the children that `rule` builds, starting at children[start], can end."""
        at = {start}
        for sym in rule.expansion:
            after: set[int] = set()
            for i in at:
                if sym.is_term:
                    if _dropped(sym, rule):
                        after.add(i)
                    elif i < len(children) and children[i] == (True, sym.name):
                        after.add(i + 1)
                elif sym.name.startswith("_"):
                    after |= self._spliced(sym.name, i, children, spans)
                elif i < len(children) and (not children[i][0] and children[i][1] in self.labels.get(sym.name, ())
                                            or self._single(sym.name, i, children, spans)):
                    after.add(i + 1)
            at = after
        return at

    def _spliced(self, name: str, start: int, children: tuple[tuple[bool, str], ...],
                 spans: dict[tuple[Any, int], set[int]]) -> set[int]:
        """Ends of the children of a `_rule` spliced in at `start`; its left recursion grows to a fixpoint."""
        key = (name, start)
        if key in spans:
            return spans[key]
        spans[key] = set()
        while True:
            found = set().union(*(self._ends(r, start, children, spans) for r in self.rules.get(name, ())))
            if found <= spans[key]:
                return spans[key]
            spans[key] |= found

    def _single(self, name: str, start: int, children: tuple[tuple[bool, str], ...],
                spans: dict[tuple[Any, int], set[int]]) -> bool:
        """Whether children[start] alone can stand for a `?rule` it was the one child of."""
        key = (("?", name), start)
        if key not in spans:
            spans[key] = set()                         # while being asked: no (a refusal at worst)
            if any(r.options.expand1 and not r.alias and start + 1 in self._ends(r, start, children, spans)
                   for r in self.rules.get(name, ())):
                spans[key] = {start + 1}
        return bool(spans[key])


def _dropped(sym: Symbol, rule: Rule) -> bool:
    """A token lark leaves out of the tree (`_TOKEN`, or an anonymous string in the grammar)."""
    return sym.is_term and bool(getattr(sym, "filter_out", False)) and not rule.options.keep_all_tokens


def _ambiguities(tree: Tree[Token]) -> int:
    from lark import Tree

    count = 0
    stack: list[Tree[Token] | Token] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Tree):
            count += node.data == "_ambig"
            stack.extend(node.children)
    return count


def readings(words: list[Word]) -> tuple[Any, ...]:     # Nodes (Any: questions.py holds them as lark Trees)
    """The parse trees of a typed sentence; leaves are Toks whose value is a word index."""
    if not words or len(words) > MAX_WORDS or sum(w.type in ("AND", "COMMA", "BUT") for w in words) > MAX_JOINS:
        return ()
    return _readings(tuple(w.type for w in words))
