"""Words of the controlled language: tokens with their grammatical type, and morphology.

Morphology comes from `lemminflect` (chosen over `inflect`: it lemmatises AND inflects nouns and
verbs, knows each word's parts of speech from a real lexicon, and has rules for words it has
never seen, so invented words work too; its data ships inside the wheel, nothing downloads).
It is imported on first use so that `sym --help` stays fast. This room decides nothing about
meaning: it only says what a word can be.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sym.core.reason.swm.english import classes

# Function words → token type. Everything not here is a content word (W, C) or a number (N).
KEYWORDS: dict[str, str] = {
    "is": "IS", "are": "ARE", "not": "NOT", "does": "DOES", "do": "DO",
    "a": "A", "an": "A", "the": "THE", "and": "AND", "but": "BUT", "or": "OR",
    "if": "IF", "then": "THEN", "all": "ALL", "every": "EVERY", "each": "EVERY", "any": "EVERY",
    "no": "NO", "of": "OF", "to": "TO", "than": "THAN", "that": "THAT", "who": "WHO", "which": "WHICH",
    "what": "WHAT", "whom": "WHO",
    "something": "SOMETHING", "someone": "SOMETHING", "somebody": "SOMETHING",
    "everything": "EVERYTHING", "everyone": "EVERYTHING", "everybody": "EVERYTHING",
    "nothing": "NOTHING", "nobody": "NOTHING",
    "it": "IT", "he": "IT", "she": "IT", "him": "IT", "itself": "IT", "himself": "IT", "herself": "IT",
    "they": "THEY", "them": "THEY", "themselves": "THEY",
    "thing": "THING", "things": "THING", "person": "THING", "persons": "THING", "people": "THING",
}
PREPOSITIONS = frozenset("""in on at from into with by for about under over near behind above below
inside outside beside across through toward towards onto upon within against among around after
before beneath between""".split())
# Words that never carry content in this fragment: a sentence holding one is outside it.
STOP = frozenset("""was were be been being am had will would can could shall should may might must
some most many few several this these those my his her its their our your there here very rather
quite too also only just always never often usually sometimes seldom rarely so because although
though while when where how why yes either neither nor both more less least same other another
such much own really already still even perhaps maybe probably today tomorrow yesterday now
ever again almost nearly somewhat mostly generally typically none none""".split())
_CONTRACTIONS = {"doesn't": ["does", "not"], "don't": ["do", "not"], "isn't": ["is", "not"],
                 "aren't": ["are", "not"], "doesnt": ["does", "not"], "dont": ["do", "not"]}
# a word starts with a letter of any script and goes on with letters, digits, - and '
_TOKEN = re.compile(r"[^\W\d_](?:[^\W_]|['-])*|\d+|[,?]|\S")
_WORDLIKE = re.compile(r"[A-Za-z][A-Za-z-]*(?:'[a-z]+)?\Z")
_LETTERS = r"[^\W\d_]"
# names as people write them: Zoë, José, Émile (letters of any script), O'Brien, D'Angelo (an
# apostrophe before a capital), Person0, R2D2 (digits after a capital); each is one name
_NAME = re.compile(rf"{_LETTERS}+(?:-{_LETTERS}+)*|(?:{_LETTERS}{{1,3}}'(?=[^\W\d_a-z]))?{_LETTERS}+|"
                   rf"{_LETTERS}[^\W_]*\d[^\W_]*")


# modal verbs that are also first names: a name mid-sentence when capitalised ("Is Will tall?"),
# and at the start before a verb a modal cannot take ("Will is tall.", "May likes Al.")
NAME_WORDS = frozenset({"will", "may"})
_AFTER_NAME = frozenset({"is", "isn't", "does", "doesn't", "has", ","})


def _names_someone(raws: list[str], at: int) -> bool:
    if at:
        return True
    following = raws[1].lower() if len(raws) > 1 else ""
    return following in _AFTER_NAME or (following.endswith("s") and following.isalpha() and following.islower()
                                        and following not in STOP and len(following) > 2)


@dataclass(frozen=True)
class Word:
    text: str       # as written
    type: str       # grammar terminal: a keyword type, W (lower-case), C (capitalised), N (number), P, COMMA, QMARK

    @property
    def low(self) -> str:
        return self.text.lower()


def tokens(sentence: str) -> list[Word] | None:
    """Typed tokens of one sentence (final "." dropped), or None when a character or word puts
    it outside the fragment (quotes, possessives, semicolons, modal verbs, adverbs …)."""
    # one spelling per name: composed accents (a decomposed Zoë is the same name), and the
    # typographic apostrophe read as ' (O’Brien, doesn’t)
    text = unicodedata.normalize("NFC", sentence.strip()).replace("\u2019", "'")
    if text.endswith("."):
        text = text[:-1]
    out: list[Word] = []
    raws = _TOKEN.findall(text)
    for at, raw in enumerate(raws):
        low = raw.lower()
        if low in NAME_WORDS and raw[0].isupper() and _names_someone(raws, at):
            out.append(Word(raw, "C"))      # Will, May: a name where the modal cannot stand
            continue
        if at and len(raw) == 1 and raw.isupper():     # "If B is the son of A": a letter, not "a"
            out.append(Word(raw, "C"))
            continue
        if raw == ",":
            out.append(Word(raw, "COMMA"))
        elif raw == "?":
            out.append(Word(raw, "QMARK"))
        elif raw.isdigit():
            out.append(Word(raw, "N"))
        elif low in _CONTRACTIONS:
            out += [Word(w, KEYWORDS[w]) for w in _CONTRACTIONS[low]]
        elif raw.endswith("'s") and raw[0].isupper() and raw[:-2].isalpha() and len(raw) > 3 and low[:-2] not in KEYWORDS:
            out += [Word(raw[:-2], "C"), Word("'s", "POSS")]     # Bob's: a possessive, or "Bob is" (statements.py)
        elif not raw.isascii() or "'" in raw or not raw.isalpha() and any(c.isdigit() for c in raw):
            if not (raw[0].isupper() or not raw.isascii() and raw.isalpha()) or not _NAME.fullmatch(raw) \
                    or "'" in raw and not raw[0].isupper():
                return None     # a possessive (Bob's), a quote, a word with digits that is no name
            out.append(Word(raw, "C" if raw[0].isupper() else "W"))
        elif not _WORDLIKE.match(raw) or "'" in raw or low in STOP or classes.closed_class_problem(low, at):
            return None
        elif low in KEYWORDS:
            out.append(Word(raw, KEYWORDS[low]))
        elif low in PREPOSITIONS:
            out.append(Word(raw, "P"))
        elif only_function_word(low):
            return None
        else:
            out.append(Word(raw, "C" if raw[0].isupper() else "W"))
    if any(w.type == "QMARK" for w in out[:-1]):
        return None
    return out or None


# -- morphology (lemminflect, loaded on first use) ---------------------------------------

@lru_cache(maxsize=1)
def _lemminflect() -> Any:
    import lemminflect

    return lemminflect


@lru_cache(maxsize=65536)
def parts_of_speech(word: str) -> frozenset[str]:
    """The parts of speech the lexicon knows for `word` (empty for a word it has never seen)."""
    low = word.lower()
    tables = _lemma_tables()
    if tables is not None:          # the keys only: getAllLemmas deep-copies both tables' entries
        return frozenset(tables[0].get(low, {})) | frozenset(tables[1].get(low, {}))
    return frozenset(_lemminflect().getAllLemmas(low))


@lru_cache(maxsize=1)
def _lemma_tables() -> tuple[dict[str, Any], dict[str, Any]] | None:
    """lemminflect's lemma table and its overrides (what getAllLemmas reads), or None when this
    version keeps them otherwise."""
    try:
        lemmatizer = _lemminflect().core.Lemmatizer.Lemmatizer()
        tables = (lemmatizer._getLemmaDict(), lemmatizer._getOverridesDict())
    except (AttributeError, TypeError):
        return None
    return tables if all(isinstance(t, dict) for t in tables) else None


def only_function_word(word: str) -> bool:
    """Known to the lexicon, but only as an adverb, auxiliary, determiner, pronoun, …"""
    pos = parts_of_speech(word)
    return bool(pos) and not pos & {"NOUN", "VERB", "ADJ", "PROPN"}


def _strip_s(word: str) -> str:
    """Regular -s/-es/-ies endings off (for words the lexicon does not know)."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zes", "uses")):
        return word[:-2]
    return word[:-1] if word.endswith("s") else word


def _regular_plural(word: str) -> bool:
    """An unknown word shaped like a regular plural: -s, but not -ss, -us, -is."""
    return word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 2


@lru_cache(maxsize=65536)
def noun_lemma(word: str) -> str:
    """Singular of a noun ("wolves" → "wolf", "mice" → "mouse"; unknown words by the regular
    rules only: "glorps" → "glorp", "wumpuses" → "wumpus")."""
    word = word.lower()
    if "NOUN" not in parts_of_speech(word):
        return _strip_s(word) if _regular_plural(word) else word
    lemmas = _lemminflect().getLemma(word, upos="NOUN")
    if len(lemmas) > 1:
        # "leaves": leave or leaf. The lemma the form is an irregular plural of is the marked
        # reading ("leaf" → "leaves" by rule of its own; "leave" → "leaves" by the regular -s).
        irregular = [lemma for lemma in lemmas if _strip_s(word) != lemma]
        lemmas = irregular or lemmas
    return lemmas[0] if lemmas else word


def is_plural_noun(word: str) -> bool:
    """A plural noun form: its singular differs ("cats", "mice"; not "glass", "sheep")."""
    word = word.lower()
    pos = parts_of_speech(word)
    if pos and "NOUN" not in pos:
        return False
    if not pos:
        return _regular_plural(word)
    return noun_lemma(word) != word


@lru_cache(maxsize=65536)
def can_be_plural(word: str) -> bool:
    """A plural noun form, including the unchanging ones ("sheep", "fish")."""
    word = word.lower()
    if is_plural_noun(word):
        return True
    return "NOUN" in parts_of_speech(word) and word in _lemminflect().getInflection(word, tag="NNS")


def can_be_noun(word: str) -> bool:
    pos = parts_of_speech(word)
    return not pos or "NOUN" in pos or "PROPN" in pos


def can_be_adjective(word: str) -> bool:
    """Unknown words, adjectives and participles; not a word known only as a noun or verb, and
    not an unknown word shaped like a plural noun ("wumpuses")."""
    word = word.lower()
    pos = parts_of_speech(word)
    if not pos:
        return not is_plural_noun(word)
    return "ADJ" in pos or ("VERB" in pos and word.endswith(("ed", "en", "ing")))


@lru_cache(maxsize=65536)
def degree(word: str) -> str | None:
    """"comparative" or "superlative" for a graded form of an adjective the lexicon knows ("taller",
    "best"), else None: "clever" and "bitter" are no forms of another word, and an invented word is
    no one's comparative."""
    word = word.lower()
    for lemma in _lemminflect().getAllLemmas(word).get("ADJ", ()):
        if lemma == word or "ADJ" not in parts_of_speech(lemma):
            continue
        for tag, name in (("JJR", "comparative"), ("JJS", "superlative")):
            if word in _lemminflect().getInflection(lemma, tag=tag):
                return name
    return None


def not_a_property(word: str) -> str | None:
    """Why an adjective is no property of the thing it is said of, or None: it is privative or modal
    ("a former president"), or a graded form with nothing to grade against ("Bob is taller")."""
    if word.lower() in classes.PRIVATIVE:
        return f"'{word}' is privative or modal: not a property of the thing"
    if grade := degree(word):
        return f"'{word}' is a {grade}: {word} than what? Say it (\"taller than Al\")"
    return None


@lru_cache(maxsize=65536)
def verb_lemma(word: str) -> str:
    word = word.lower()
    if "VERB" not in parts_of_speech(word):
        return _strip_s(word) if word.endswith("s") and not word.endswith("ss") else word
    lemmas = _lemminflect().getLemma(word, upos="VERB")
    return lemmas[0] if lemmas else word


@lru_cache(maxsize=65536)
def third_person(verb: str) -> str:
    """The 3rd person singular of a base-form verb ("chase" → "chases", "carry" → "carries")."""
    verb = verb.lower()
    if "VERB" in parts_of_speech(verb):
        forms = _lemminflect().getInflection(verb, tag="VBZ")
        if forms:
            form: str = forms[0]
            return form
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ies"
    return verb + "s"


def verb_form(word: str, *, singular: bool) -> str | None:
    """A finite verb agreeing with its subject → the predicate name (3rd person singular);
    None when `word` cannot be that verb ("Bob chase", "Cats chases", a known non-verb)."""
    word = word.lower()
    pos = parts_of_speech(word)
    if pos and "VERB" not in pos:
        return None
    if singular:
        if not word.endswith("s") or word.endswith("ss"):
            return None
        lemma = verb_lemma(word)
        return word if third_person(lemma) == word else None
    if not pos and (word.endswith("s") and not word.endswith("ss") or word.endswith("ed")):
        return None  # an unknown word in -s or -ed after a plural subject: not a base form
    if pos and verb_lemma(word) != word:
        return None  # "they chased", "they chases"
    return third_person(word)


def base_verb(word: str) -> str | None:
    """A bare infinitive after do/does (not) → the predicate name."""
    return verb_form(word, singular=False)
