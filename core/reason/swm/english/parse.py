"""Sentences → every parse tree the grammar allows (its readings), fast.

The grammar sees token types only (lexicon.py), so the trees of a sentence depend on its
shape, not its words: they are parsed once per shape (Earley, all ambiguities kept) and
cached; each leaf holds the index of its word. The cost per sentence is then a dictionary
look-up, and one Earley parse per new shape of bounded length — linear in the text.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from sym.core.reason.swm.english.lexicon import Word

if TYPE_CHECKING:
    from lark import Lark, Token, Tree
    from lark.common import LexerConf
    from lark.lexer import LexerState

MAX_WORDS = 40          # longer sentences are outside the fragment (Earley time grows fast with
MAX_JOINS = 8           # coordination: 10 "and"s can take ~0.7 s of Earley, 8 take ~0.06 s)
MAX_READINGS = 64       # more readings than this: too ambiguous to be controlled English


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

    grammar = (Path(__file__).with_name("grammar.lark")).read_text(encoding="utf-8")
    return Lark(grammar, parser="earley", lexer=_Feed, ambiguity="explicit", propagate_positions=False)


@lru_cache(maxsize=8192)
def _readings(shape: tuple[str, ...]) -> tuple[Node, ...]:
    """All parse trees for a shape (tuple of token types); () when it has none or too many."""
    from lark.exceptions import LarkError
    from lark.visitors import CollapseAmbiguities

    try:
        tree = _parser().parse(shape)
    except LarkError:
        return ()
    if _ambiguities(tree) > 12:
        return ()
    trees = CollapseAmbiguities().transform(tree)
    return tuple(_compact(t) for t in trees) if len(trees) <= MAX_READINGS else ()


class Node:
    """A parse-tree node, flattened once per shape so that reading it is cheap: `kids` are the
    child nodes, `toks` the child tokens (type, value = word index), `leaves` every word index."""

    __slots__ = ("data", "kids", "toks", "leaves")

    def __init__(self, data: str, kids: tuple[Node, ...], toks: tuple[Token, ...], leaves: tuple[int, ...]) -> None:
        self.data, self.kids, self.toks, self.leaves = data, kids, toks, leaves


def _compact(tree: Tree[Token]) -> Node:
    from lark import Token

    kids: list[Node] = []
    toks: list[Token] = []
    leaves: list[int] = []
    for child in tree.children:
        if isinstance(child, Token):
            toks.append(child)
            leaves.append(child.value)
        else:
            node = _compact(child)
            kids.append(node)
            leaves.extend(node.leaves)
    return Node(str(tree.data), tuple(kids), tuple(toks), tuple(leaves))


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
    """The parse trees of a typed sentence; leaves are Tokens whose value is a word index."""
    if not words or len(words) > MAX_WORDS or sum(w.type in ("AND", "COMMA", "BUT") for w in words) > MAX_JOINS:
        return ()
    return _readings(tuple(w.type for w in words))
