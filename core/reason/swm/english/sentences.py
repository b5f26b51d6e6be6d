"""A text → its sentences, in linear time. A stop after an abbreviation ("Dr. Smith", "e.g.",
"the U.S. Army") does not end a sentence; "Box 0 contains …, Box 1 contains …" lists (one verb,
a name before each) become one sentence per part; and run-on text the way stories are written
("Bob went home, Al stayed.", "… his sister, Mary Madonna had a daughter.") is cut where a comma
joins two whole clauses. Only cuts that the words leave no doubt about are made: a comma between
clauses the splitter cannot be sure of stays (the sentence is then read as one, or refused)."""

from __future__ import annotations

import re
from functools import lru_cache

from sym.core.reason.swm.english import classes, lexicon

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(]?[A-Za-z0-9])")
_NAME_WORD = re.compile(r"(?:[A-Z][A-Za-z'-]*|\d+)\Z")
_WORD = re.compile(r"[a-z][a-z'-]*\Z")
_FUNCTION = frozenset("the a an and or not is are if then all every each no of".split())

# Abbreviations: a title never ends a sentence; these may ("Al Jr. He left.", "Elm St. Then …"),
# so they join the next word unless it opens a sentence; "etc." and company words end one unless
# the next word is lower case.
_TITLES = frozenset("mr mrs ms prof messrs mme e.g i.e cf vs viz".split())
_MAY_END = frozenset("dr st jr sr mt ft gen capt col lt sgt rev fr hon gov sen rep".split())
_LOWER_ONLY = frozenset("etc inc ltd co corp al approx".split())
_INITIALISM = re.compile(r"(?:[a-z]\.)+[a-z]\Z")          # u.s, u.k, a.m (the final stop taken off)

# Capitalised words that open a sentence or clause and name nobody.
_OPENERS = frozenset("""a an the he she it they we you i his her its their our my your this that these
those there then but and or so yet if when whenever while after before since because although though
however later finally meanwhile yesterday today tomorrow instead also once everyone everybody someone
somebody nobody nothing something everything all every each some no none both either neither one most
many few in on at as of for with from to by into who what where why how which whose next first last
soon suddenly afterwards unfortunately luckily here now still""".split())

# Run-on cuts: a clause that opens with one of these is not whole on its own ("When Bob left, …").
_SUBORDINATORS = frozenset("""if when whenever while after before since because although though as
once until unless whereas provided given suppose assume imagine whether where wherever lest""".split())
_POSSESSIVES = frozenset("his her their my our your its".split())
# Nouns for a person's relation to someone: "his sister, Mary …" names that sister (an appositive).
_RELATIONS = frozenset("""sister brother son daughter mother father wife husband aunt uncle niece nephew
cousin grandson granddaughter grandmother grandfather grandma grandpa grandchild grandparent mom mum
dad mommy daddy child kid sibling spouse partner boyfriend girlfriend fiance fiancee friend colleague
coworker neighbor neighbour boss teacher student stepson stepdaughter stepmother stepfather stepbrother
stepsister""".split())
_AUXILIARIES = frozenset("is are was were has have had does do did can could will would shall should may might must".split())


def _list_parts(sentence: str) -> list[str] | None:
    body = sentence.rstrip(".")
    parts = body.split(", ")
    if len(parts) < 2:
        return None
    verbs = set()
    for part in parts:
        words = part.split()
        k = 0
        while k < len(words) and _NAME_WORD.match(words[k]):
            k += 1
        if k == 0 or k == len(words) or not _WORD.match(words[k]) or words[0].lower() in _FUNCTION | _SUBORDINATORS:
            return None
        verbs.add(words[k])
    return [p + "." for p in parts] if len(verbs) == 1 else None


# -- abbreviations -----------------------------------------------------------------------------

def _first_word(text: str) -> str:
    return re.sub(r"^[\"'(]+", "", text.split(" ", 1)[0])


def _continues(before: str, after: str) -> bool:
    """Whether the stop that ends `before` belongs to an abbreviation that `after` continues."""
    last = re.sub(r"^[\"'(]+", "", before.rsplit(" ", 1)[-1]).lower()
    if not last.endswith("."):
        return False
    core = last[:-1]
    nxt = _first_word(after)
    lower = nxt[:1].islower() or nxt[:1].isdigit()
    if core in _TITLES:
        return True
    if core in _LOWER_ONLY:
        return lower
    if core in _MAY_END or _INITIALISM.match(core):
        return lower or re.sub(r"[^A-Za-z]", "", nxt).lower() not in _OPENERS
    return False


# -- run-on text --------------------------------------------------------------------------------

def _bare(word: str) -> str:
    return word.strip(".,;:!?\"'()")


@lru_cache(maxsize=65536)
def _finite(word: str) -> bool:
    """A lower-case finite verb form: an auxiliary, a past tense or a 3rd person -s form the
    lexicon knows ("had", "took", "plays"); unknown words are not taken for verbs."""
    if not _WORD.match(word):
        return False
    if word in _AUXILIARIES:
        return True
    import lemminflect

    lemmas = lemminflect.getAllLemmas(word).get("VERB") or lemminflect.getAllLemmas(word).get("AUX")
    if not lemmas:
        return False
    return any(word in lemminflect.getInflection(lemma, tag=tag) for lemma in lemmas for tag in ("VBD", "VBZ"))


def _name(word: str) -> bool:
    """One capitalised word that can name someone ("Mary", "[Mary]"); not "The", "He", "Box 1"."""
    word = word.removeprefix("[").removesuffix("]")
    return bool(re.fullmatch(r"[A-Z][a-z]+", word)) and word.lower() not in _OPENERS


def _appositive(words: list[str], start: int, comma: int) -> bool:
    """The clause before the comma ends with someone's relation ("… his sister,")."""
    noun = words[comma][:-1].lower()
    if noun not in _RELATIONS and not noun.endswith("-in-law"):
        return False
    owners = words[max(start, comma - 3):comma]
    return any(w.lower() in _POSSESSIVES or w.endswith(("'s", "s'")) for w in owners)


def _cut(words: list[str], start: int, comma: int, has_verb: bool) -> int | None:
    """Where a new sentence starts after the comma that ends words[comma], or None: the clause
    before is whole (a subject, a finite verb, no opening subordinator, not ending in a verb or a
    function word) and the words after are one to three names and a finite verb."""
    last = words[comma][:-1]
    if not has_verb or words[start].lower().strip(",") in _SUBORDINATORS or _finite(last) or \
            last.lower() in _OPENERS or last.lower() in _FUNCTION:
        return None
    j = comma + 1
    while j < len(words) and j - comma <= 3 and _name(words[j]):
        j += 1
    names = j - comma - 1
    if not names or j >= len(words) or not _finite(_bare(words[j])) or words[j][:1].isupper():
        return None
    if _appositive(words, start, comma):
        # "his sister, Mary Madonna had …": Mary is the sister, Madonna starts the next sentence;
        # "his sister, Mary had …" may name her or start anew: left as one sentence
        return comma + 2 if names == 2 else None
    return comma + 1


def _run_on(sentence: str) -> list[str]:
    words = sentence.split(" ")
    out: list[str] = []
    start, has_verb, i = 0, False, 0
    while i < len(words):
        word = words[i]
        if i > start and _finite(_bare(word)) and word[:1].islower():
            has_verb = True
        cut = _cut(words, start, i, has_verb) if word.endswith(",") and i + 2 < len(words) else None
        if cut is None:
            i += 1
            continue
        out.append(" ".join(words[start:cut - 1] + [words[cut - 1].rstrip(",") + "."]))
        start, has_verb, i = cut, False, cut
    out.append(" ".join(words[start:]))
    if len(out) > 1 and _report(out[-1]):
        return [sentence]       # "Al is tall, Bob thinks.": a report, read (and refused) whole
    return out


def _report(clause: str) -> bool:
    """A clause that only says who thinks or says so: a subject and a verb of saying, no object."""
    words = clause.rstrip(".!").split()
    return 2 <= len(words) <= 4 and words[-1].isalpha() and lexicon.verb_lemma(words[-1]) in classes.REPORTS


def split_sentences(text: str) -> list[str]:
    """Sentences of a text; "Box 0 contains …, Box 1 contains …" lists become one each, and a
    comma between two whole clauses ends the first."""
    pieces: list[str] = []
    for raw in _SENTENCE_END.split(" ".join(text.split())):
        if pieces and _continues(pieces[-1], raw):
            pieces[-1] += " " + raw            # "Dr. Smith": one sentence
        else:
            pieces.append(raw)
    out = []
    for raw in pieces:
        raw = raw.strip()
        if raw:
            out.extend(_list_parts(raw) or _run_on(raw))
    return out
