"""Whether a formula says what its sentence says (step 3 of step-wise writing,
core/reason/pot/steps.py): the words of its names against the sentence's, the members it names
and leaves out, and shapes that contradict the sentence. Nothing here calls a model or runs Z3.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sym.core.reason.swm.english.lexicon import degree

if TYPE_CHECKING:
    from sym.core.reason.pot.vocabulary import Vocabulary

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

STOP = frozenset("a an the of to in on at by for with and or not no is are be been was were has have had does do "
                 "who that which than then if it its their they them he she his her".split())


NOT_IN_SENTENCE = "is not in the sentence; use only names for what it says"


def stems(text: str) -> set[str]:
    words = re.findall(r"[a-z0-9]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", text).replace("_", " ").lower())
    return {re.sub(r"(?<=...)e?s$", "", w)[:4] for w in words if w not in STOP}   # cats ~ cat, classes ~ class


def unsaid(name: str, said: set[str]) -> str:
    """The words of a name (snake_case or camelCase: isRed is "is red") whose stems are not among `said`."""
    return ", ".join(w for w in re.findall(r"[a-z0-9]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", name).lower())
                     if stems(w) and not stems(w) <= said)


def ungrounded(formula: str, sentence: str, vocab: Vocabulary) -> str | None:
    """A predicate or individual in the formula that its sentence does not say (a formula about
    something the sentence does not mention misstates it), or None: a predicate's content words
    must all be the sentence's ("lives_at_home" is not "has lunch at home", "is_active" is not
    "inactive"); an individual must share a word with it, other than one every member of its sort
    has ("The orange book is second" does not name brown_book). Numeric functions (a place, an amount)
    are exempt: their names are the model's own. A formula whose every property only repeats its
    argument's name says nothing the sentence does: `Xor(isPurple(purple_book), isBlack(black_book))`
    for "The purple book is to the left of the black book" (seen with the reference model: every
    word was the sentence's)."""
    said = stems(sentence)
    predicates = {f.name for f in vocab.functions if f.result != "Int"}
    members = {m for s in vocab.sorts for m in s.members}
    for name in dict.fromkeys(WORD.findall(formula)):
        own = stems(name)
        if not own:
            continue
        if name in predicates and not own <= said:
            return f"{name!r} says {unsaid(name, said)!r}, which the sentence does not; use only names for what it says"
        if name in members and not _names(said, name, vocab):
            return f"{name!r} {NOT_IN_SENTENCE}"
    applied = _applications(formula)
    repeats = [(name, args) for name, args in applied if name in predicates and stems(name) and args
               and set(args) <= members and stems(name) <= set().union(*(stems(a) for a in args))]
    if repeats and len(repeats) == len(applied):
        name, args = repeats[0]
        return (f"{name}({', '.join(args)}) only repeats what {args[0]} is called; write what the sentence "
                "says about it")
    return None


def speaks_of(sentence: str, vocab: Vocabulary) -> str | None:
    """The declared name a sentence speaks of (a function whose words are all the sentence's, or
    a member it names), or None: a sentence so marked "sets no condition" was not read (seen with
    the reference model: every premise of a puzzle marked so, which left the program empty and
    every claim "unknown", an answer for a True/False/Uncertain item). A sentence naming every
    member of a closed sort introduces them: step 1 said that already, and the words step 2 took
    from it are not a condition to write (seen: "Four boys—Fred, … —will be assigned to lockers …
    along a straight wall" sent back three times for speaking of `wall(Person)`, each time written
    as a rule about walls). Left `none`, it still counts as left out: it only weakens."""
    if introduces(sentence, vocab.sorts):
        return None
    said = stems(sentence)
    for f in vocab.functions:
        if stems(f.name) and stems(f.name) <= said:
            return f.name
    return next((m for s in vocab.sorts for m in s.members if stems(m) and stems(m) <= said), None)


def introduces(sentence: str, sorts: Sequence[Any]) -> bool:
    """Whether a sentence names every member of a closed sort of several (it introduces them: "On a
    shelf, there are three books: a white book, ...")."""
    said = stems(sentence)
    return any(s.closed and len(s.members) > 1 and all(stems(m) and stems(m) <= said for m in s.members)
               for s in sorts)


def _names(said: set[str], member: str, vocab: Vocabulary) -> bool:
    """Whether a sentence's stems `said` name `member`: a word of its own, not one every member of its
    sort has, or any of its words when it has none of its own."""
    own = stems(member)
    return bool((own - _shared(member, vocab) or own) & said)


def _shared(member: str, vocab: Vocabulary) -> set[str]:
    """The words every member of `member`'s sort has ("book" of brown_book, red_book, …): they
    tell none apart, so a sentence that says only them does not name this one."""
    for s in vocab.sorts:
        if member in s.members and len(s.members) > 1:
            return set.intersection(*(stems(m) for m in s.members))
    return set()


_APPLIED = (re.compile(r"\b([A-Za-z_]\w*)\(\s*(\w+(?:\s*,\s*\w+)*)\s*\)"),      # JSON: p(a, b)
            re.compile(r"\(([A-Za-z_]\w*)((?:\s+\w+)+)\s*\)"))                    # SMT-LIB: (p a b)


def _applications(formula: str) -> list[tuple[str, list[str]]]:
    """Each function applied to plain names in `formula` (JSON or SMT-LIB): (name, its arguments)."""
    return [(m.group(1), re.findall(r"\w+", m.group(2))) for pattern in _APPLIED for m in pattern.finditer(formula)]


_GENERAL = re.compile(r"\b(?:if|when|whenever|all|every|each|any|anyone|everyone|everybody|whoever)\b", re.I)
_CONNECTIVE = {"json": re.compile(r"\b(?:Implies|Or|Xor|Not|Exists|If)\("),
               "smt2": re.compile(r"\((?:=>|or|xor|not|exists|ite)(?=[\s(])")}
_VARIABLE = re.compile(r"\b[xyz]\b")


def misread(formula: str, sentence: str, vocab: Vocabulary, fmt: str) -> str | None:
    """A formula whose shape contradicts its sentence, or None:
    - the sentence names an individual the model declared (a capitalised word of the sentence)
      and the formula names none, only variables: "James is a manager or ..." read as about
      everything;
    - the sentence is conditional or general ("if", "all", "every", "whoever" ...) and the formula
      claims a conjunction of plain atoms of everything: "If A then B" read as "everything is A
      and B";
    - the sentence names several members and the formula leaves some out: "The oranges are more
      expensive than the mangoes" read as expensive(oranges) (seen with the reference model). A
      sentence naming every member of a closed sort only lists them."""
    members = {m.lower(): m for s in vocab.sorts for m in s.members}
    named = [members[w.lower()] for w in re.findall(r"\b[A-Z][A-Za-z0-9_]*\b", sentence) if w.lower() in members]
    used = set(WORD.findall(formula))
    variables = bool(_VARIABLE.search(formula))
    if named and variables and not used & set(members.values()):
        return f"the sentence is about {named[0]}: write {named[0]} where it names them, not a variable"
    if variables and _GENERAL.search(sentence) and not _CONNECTIVE[fmt].search(formula):
        return ("the sentence says if/all: use the form all (if [...] then [...]), not a claim that "
                "everything has every property")
    said = stems(sentence)
    for s in vocab.sorts:
        spoken = [m for m in s.members if stems(m) and stems(m) <= said]
        left = [m for m in spoken if m not in used]
        if left and len(left) < len(spoken) and not (s.closed and len(spoken) == len(s.members)):
            return (f"the sentence speaks of {' and '.join(spoken)}: write what it says of each, "
                    f"not of {next(m for m in spoken if m in used)} alone")
    return None


# the ends a place is counted from, as step 3's prompt sets them: from the left is from the start
_ENDS = {"left": False, "start": False, "beginning": False, "right": True, "end": True}
_FROM = re.compile(r"\bfrom the (left|right|start|beginning|end)\b", re.IGNORECASE)


def compared_with_all(line: dict[str, Any], formula: str, sentence: str, vocab: Vocabulary) -> str | None:
    """What `ungrounded` finds, with the way out when it is a comparison's other member that a
    superlative sentence does not name: a member compared with every other is the `most` form. (Seen with the
    reference model: "The apples are the cheapest." written as price(apples) < price(mangoes) through
    three repairs, each refused for naming the mangoes, while it wrote the premise "The plums are the
    cheapest." as `most`.)"""
    problem = ungrounded(formula, sentence, vocab)
    other = line.get("to", {}).get("arg") if line.get("form") == "compare" and isinstance(line.get("to"), dict) else None
    members = {m for s in vocab.sorts for m in s.members}
    if problem and other in members and not _names(stems(sentence), other, vocab) and _extreme(sentence):
        return f"{problem}; a member compared with every other member is the form most"
    return problem


def _extreme(sentence: str) -> bool:
    """Whether a sentence says a highest or lowest of all: a superlative ("the cheapest", "the most
    expensive", "the leftmost") or "first"/"last" (not "locker 3", where a comparison's unnamed
    other member is no sign of one)."""
    return any(degree(w) == "superlative" or w.lower().endswith("most") or w.lower() in ("first", "last")
               for w in WORD.findall(sentence))


_ORDINAL = re.compile(r"\b(second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(?:st|nd|rd|th))\b",
                      re.IGNORECASE)


def _wrong_most(line: dict[str, Any], sentence: str, said: list[str]) -> str | None:
    """A `most` form (the highest or lowest of all) for a sentence that names another place ("the
    second from the right": seen with the reference model, which so made LogicalDeduction's option
    "the purple book is the second from the right" mean "the purple book is the leftmost", and Z3
    proved it), or for the other end than the sentence counts from."""
    ordinal = _ORDINAL.search(sentence)
    if ordinal:
        return (f"'{ordinal.group(0).lower()}' is a place, not the highest or lowest of all: "
                "write it with the compare form and the place")
    ends = {_ENDS[w.lower()] for w in said}
    end = ends.pop() if len(ends) == 1 else None
    if end is not None and (line.get("extreme") == "highest") != end:
        return (f"'from the {said[0].lower()}' counts from the {'end' if end else 'start'}: "
                f"the extreme is {'highest' if end else 'lowest'}")
    return None


def wrong_end(line: dict[str, Any], sentence: str) -> str | None:
    """A place counted from the other end than its sentence says, or None: "the second from the
    right" filled as place 2 from the start (seen with the reference model on LogicalDeduction,
    where it made the orange book, second from the left, also second from the right: a wrong
    answer Z3 proved)."""
    said = _FROM.findall(sentence)
    if line.get("form") == "most":
        return _wrong_most(line, sentence, said)
    to = line.get("to") if line.get("form") == "compare" else None
    if not isinstance(to, dict) or "place" not in to or len({_ENDS[w.lower()] for w in said}) != 1:
        return None
    end = _ENDS[said[0].lower()]
    if bool(to.get("from_end")) == end:
        return None
    return (f"'from the {said[0].lower()}' counts from the {'end' if end else 'start'}: "
            f"set from_end to {'true' if end else 'false'}")
