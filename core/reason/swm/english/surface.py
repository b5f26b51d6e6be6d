"""What a sentence says once the words that add nothing are set aside: an exclamation mark is a
full stop, a leading interjection or discourse marker before a comma ("Yes, …", "Well, …", "In
fact, …") is dropped, "When/Whenever A, B." is the conditional "If A, B.", and "B if A." (or
"B whenever A.") is "If A then B." — except after a verb that takes "if" as "whether" (asks,
wonders, knows …) and for "only if", "even if", "as if", which say something else. Each rule is
in the controlled language's definition (docs/english.md); nothing else is rewritten.
"""

from __future__ import annotations

import re
from collections.abc import Callable

MARKERS = ("yes", "no", "well", "oh", "ah", "indeed", "of course", "also", "besides", "moreover",
           "furthermore", "in fact", "actually", "so", "therefore", "thus", "hence", "however",
           "in addition", "clearly", "obviously", "certainly", "now")
_MARKER = re.compile(rf"^(?:{'|'.join(re.escape(m) for m in MARKERS)})\s*,\s+(?=\S)", re.I)
_WHEN = re.compile(r"^(?:when|whenever)\s+(?=[^,]+,\s*\S)", re.I)
_TRAILING_IF = re.compile(r"^(?P<main>[^,]+?)\s+(?P<word>if|whenever)\s+(?P<cond>[^,]+?)\s*\.$", re.I)
# verbs after which "if" means "whether": "Bob asks if Al sings." is no conditional
_WHETHER = frozenset("""ask asks asked wonder wonders wondered know knows knew see sees saw check checks
checked decide decides doubt doubts tell tells say says care cares mind minds remember remembers forget
forgets determine determines question questions learn learns find finds test tests""".split())
_OTHER_IF = re.compile(r"\b(?:only|even|as)\s+if\b", re.I)


_NEGATIVE_ASK = re.compile(r"^(isn't|aren't|doesn't|don't)\s+", re.I)
_TAG = re.compile(r"^(?P<statement>[^?]+?),\s*(?:is|isn't|are|aren't|does|doesn't|do|don't)(?:\s+not)?\s+"
                  r"(?:he|she|it|they)\s*\?$", re.I)


def asked(question: str) -> str:
    """A question as what it asks: "Isn't Bob tall?" asks whether Bob is tall (as "Is Bob tall?"),
    and a tag question ("Bob is tall, isn't he?") asks whether its statement holds, so it is that
    statement, to be judged."""
    text = plain(question)
    tagged = _TAG.match(text)
    if tagged:
        return tagged.group("statement").strip() + "."
    m = _NEGATIVE_ASK.match(text)
    if m and text.endswith("?"):
        word = m.group(1).lower().replace("n't", "")
        word = {"is": "Is", "are": "Are", "does": "Does", "do": "Do"}[word]
        return f"{word} {text[m.end():]}"
    return text


def plain(sentence: str) -> str:
    """The sentence with what adds nothing set aside (a statement; questions keep their form)."""
    text = uncapitalised(" ".join(sentence.split()))
    if text.endswith("!"):
        text = text.rstrip("!").rstrip() + "."
    while True:
        stripped = _MARKER.sub("", text, count=1)
        if stripped == text:
            break
        text = stripped[:1].upper() + stripped[1:]
    if _OTHER_IF.search(text):
        return text
    if _WHEN.match(text):
        return "If " + _WHEN.sub("", text, count=1)
    m = _TRAILING_IF.match(text)
    if m and not m.group("main").lower().startswith(("if ", "when")):
        last = m.group("main").split()[-1].lower()
        if last not in _WHETHER and not cataphora(text):
            cond = m.group("cond")
            main = m.group("main")
            main = main[:1].lower() + main[1:] if _lower_first(main) else main
            return f"If {cond} then {main}."
    return text


_DEFINITE = re.compile(r"\bthe\s+", re.I)
_INTRODUCES = re.compile(r"\b(?:a|an|every|each|all|some(?:thing|one|body))\b", re.I)


def cataphora(text: str) -> str:
    """Why a condition-last conditional is not rewritten ("" when it is): a *the N* before the *a N*
    of its condition ("The cat eats if a cat is hungry.") points forward, which English reads as some
    known cat (that eats if any cat is hungry), not as the condition's cat."""
    m = _TRAILING_IF.match(text)
    if not m or not _INTRODUCES.search(m.group("cond")):
        return ""
    described = {w.lower() for d in _DEFINITE.finditer(m.group("main"))
                 for w in m.group("main")[d.end():].split()[:3]}
    if described & {w.lower().strip(",") for w in m.group("cond").split()}:
        return (f"'the …' before '{m.group('word').lower()} …' may be a thing named before or the condition's "
                f"one: put the condition first ('If {m.group('cond')} then …')")
    return ""


def _lower_first(clause: str) -> bool:
    """Whether the first word is lower-cased when the clause moves into a sentence: a word of the
    language ("Every", "The", "A"), not a name ("Bob")."""
    first = clause.split()[0]
    return first.lower() in {"every", "the", "a", "an", "all", "no", "each", "something", "nothing", "everything",
                             "it", "they"}


_NAME_WORDS = frozenset({"will", "may", "can", "must"})


def uncapitalised(text: str) -> str:
    """A sentence written wholly in capitals ("BOB IS TALL.") in sentence case, names lower case
    (they are case-insensitive): only when every letter is a capital, there are two words or more,
    and no word reads otherwise in capitals — a one-letter word other than A (a variable?) or a
    modal that is also a name (WILL: Will or will?). Otherwise the text is as written (and a
    capitalised word after "is" is no adjective, so it stays unread)."""
    if not text.isupper():            # no lower-case letter, and some capital
        return text
    words = re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", text)     # BOB'S: one word
    if len(words) < 2 or any(len(w) == 1 and w != "A" for w in words) or any(w.lower() in _NAME_WORDS for w in words):
        return text
    low = text.lower()
    return low[:1].upper() + low[1:]


_PREDICATE = re.compile(r"([a-z][a-z0-9_]*)\(")
_QUOTED_OR_JOINED = re.compile(r"'[^']*'|\b[a-z0-9]+_[a-z0-9_]+\b(?!\()")


def shouted_reading_ok(text: str, logic: str, known: Callable[[str], bool]) -> bool:
    """Whether the reading `logic` (clauses or a goal, as text) of a sentence written wholly in
    capitals does not hang on the capitals it lost: in capitals a name cannot be told from a word, so
    a word the lexicon does not know (`known`) must be read as a one-word name — never as a predicate
    ("GLOZO MUZZAIM BRUSKAIRBS …": an adjective, or the name Glozo Muzzaim?), and no constant may be
    a name of several words or a description. True for a text not in capitals."""
    if not text.isupper():
        return True
    if _QUOTED_OR_JOINED.search(logic):
        return False
    predicates = {part for pred in _PREDICATE.findall(logic) for part in pred.split("_")}
    words = {w.lower() for w in re.findall(r"[^\W\d_]+", text)}
    return not any(w in predicates and not known(w) for w in words)
