"""The model rewrites, the grammar reads (`/set tell.model rewrite`): a sentence the grammar
refuses goes to the model, which says it again in the controlled language (docs/english.md) with
the sentence's own words; the grammar reads the rewrite, round trip included; a second,
independent call answers whether the two say the same; the user (or `agent.approve`) allows the
change. The model only chooses a wording, never logic: a rewrite that adds a word, that the
grammar cannot read, or that the check calls different is refused with the reason. Every model
call happens before anything is stored, so a failed one leaves memory as it was.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from sym.core.errors import UserError
from sym.core.events import Approval
from sym.core.llm import LLMError
from sym.core.reason.swm import english, fastpath
from sym.core.reason.swm.english import classes, lexicon
from sym.core.reason.swm.outcomes import TellIncomplete, Told, quoted, said_otherwise

if TYPE_CHECKING:
    from sym.core.llm.facade import LLM
    from sym.core.memory.working import WorkingMemory
    from sym.core.reason.swm.english import Translation
    from sym.core.reason.swm.reasoner import SWM
    from sym.core.run import Run

NO_MODEL = ("unreachable", "no-model", "offline")
STOPS = ("unreachable", "no-model", "offline", "timeout")   # the model is gone: the rest are not tried
MOST_PARTS = 8             # sentences one rewrite may have
NONE = "no faithful reading"

# The controlled language's own words: a rewrite may use these though the sentence has none of them.
FUNCTION_WORDS = frozenset(lexicon.KEYWORDS) | lexicon.PREPOSITIONS | {"then", "when", "whenever"}
_NEGATIONS = frozenset("not no never none nobody nothing neither nor cannot".split())
_NUMBERS = {w: str(n) for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty".split())} | {
    w: str(20 + 10 * n) for n, w in enumerate("thirty forty fifty sixty seventy eighty ninety".split(), 1)}
_WORD = re.compile(r"[^\W\d_]+|\d+")

# Words that change what a sentence states, which the controlled language cannot say: a rewrite would
# have to drop them, and so misstate the sentence ("Al is tall, Bob thinks." is not "Al is tall.";
# "Bob was tall." is not "Bob is tall."). A sentence holding one is not rewritten. A verb of saying or
# believing whose subject is the speaker ("I'd say", "I think") only hedges; "know" entails what is
# known; "one", "two" … are kept as numbers instead (MUST_KEEP), and "when"/"whenever" are the language's.
_TENSE_AND_MODALITY = frozenset("""was were will would shall should can could might must may had did been
used""".split())
_CHANGES_MEANING = (_TENSE_AND_MODALITY | (classes.QUANTITY - frozenset(classes._NUMERALS))
                    | (classes.SUBORDINATORS - {"when", "whenever"}) | classes.PRIVATIVE
                    | frozenset("""or either neither nor only almost nearly hardly barely scarcely usually often
                    sometimes seldom rarely perhaps maybe probably possibly supposedly allegedly apparently
                    hopefully""".split()))
_DETERMINERS = frozenset("the a an his her its their my our your this that".split())
MUST_KEEP = frozenset(_NUMBERS) | frozenset(classes._NUMERALS)
HEDGES = frozenset("say think guess believe reckon suppose bet know".split())   # "I'd say": the speaker asserts


class Rewrite(BaseModel):
    """What the model answers: the rewrite, then whether the sentence has one. Both required:
    llama.cpp's schema grammar puts required keys first, and a small model that writes its
    verdict before any wording chose "no faithful reading" for plain hedges."""

    rewrite: str = Field(max_length=600)
    verdict: Literal["rewritten", "no faithful reading"]


class Same(BaseModel):
    """The independent check's answer."""

    answer: Literal["same", "different"]


REWRITE_SYSTEM = """You rewrite one English sentence in a small controlled English that a grammar reads
word for word. The rewrite states exactly what the sentence states: the same things, the same
who-does-what-to-whom, the same "not", "every" and "no". Use only the sentence's own words (in any
form: "cats" for "cat", "likes" for "like", "is" for "'s") and these words: is, are, not, does, a,
an, the, and, but, if, then, every, no, that, who, which, something, it, they, of, to, than, in, on,
at, from, with, by, for. Keep the names as written. Drop what states nothing: interjections, asides,
emphasis, and the speaker's hedges ("if you ask me", "honestly", "really", "quite").

Sentences of the language:
Zed is glib. Zed is not glib. Rox is a wug. Rox is a glib wug.
Zed is the mib of Quin. Zed is fond of Quin. Zed is glibber than Quin. Rox is in the fep.
Zed blicks Quin. Zed does not blick Quin. Zed lives in Fenn. Zed and Quin are glib.
Wugs are daxes. Every wug is a dax. No wug is glib. Every wug that glims is a dax.
If something is a wug then it is glib. If Quin glims then Zed blicks. Zed is 30 years old.

Answer with JSON only: {"rewrite": "<the sentence in the language>", "verdict": "rewritten"}.
Only when the sentence cannot be said in the language at all (it reports what someone else says or
thinks, it asks or orders, it is about the past or the future, it says "might", "some", "many" or
"or"), answer {"rewrite": "", "verdict": "no faithful reading"}.

Sentence: Zed is glib, if you ask me.
{"rewrite": "Zed is glib.", "verdict": "rewritten"}
Sentence: Quin's mib is Zed.
{"rewrite": "Zed is the mib of Quin.", "verdict": "rewritten"}
Sentence: Oh, every single wug blicks Rox!
{"rewrite": "Every wug blicks Rox.", "verdict": "rewritten"}
Sentence: Zed says that Rox glims.
{"rewrite": "", "verdict": "no faithful reading"}"""

SAME_SYSTEM = """You compare two English sentences, A and B. Answer "same" when they state the same
thing: the same things, the same who-does-what-to-whom, the same "not", the same "every", "no" or
"a". Wording, interjections, emphasis and hedges such as "I'd say" make no difference. Answer
"different" when B adds, drops, reverses, widens or narrows anything A states, or when A only
reports, asks, wishes or doubts it. JSON only: {"answer": "same"} or {"answer": "different"}.

A: Wugs? They're all daxes, obviously.
B: Every wug is a dax.
{"answer": "same"}
A: Quin's mib is Zed.
B: Quin is the mib of Zed.
{"answer": "different"}
A: Zed thinks that Rox glims.
B: Rox glims.
{"answer": "different"}"""


@dataclass
class Rewritten:
    """What became of one refused sentence: the model's rewrite and the grammar's reading of each
    of its sentences, or the problem."""

    sentence: str
    rewrite: str = ""
    readings: list[Translation] = field(default_factory=list)
    problem: str = ""
    calls: int = 0
    drawn: int = 0           # read by _refuse like a vote's Reading (never voted here)

    @property
    def paraphrase(self) -> str:
        """What sym would store, in canonical controlled English."""
        return " ".join(tr.paraphrase or tr.sentence for tr in self.readings)


def _words(text: str) -> list[str]:
    return _WORD.findall(re.sub(r"n[’']t\b", " not", text))


def _forms(word: str) -> set[str]:
    low = word.lower()
    if low.isdigit():
        return {low}
    return {low, lexicon.noun_lemma(low), lexicon.verb_lemma(low), _NUMBERS.get(low, low)}


def new_words(rewrite: str, sentence: str) -> list[str]:
    """The words of `rewrite` that are neither the controlled language's function words nor, in
    some form, words of `sentence` (names included: a rewrite names only what the sentence names)."""
    known: set[str] = set()
    for word in _words(sentence):
        known |= _forms(word)
    out = []
    for word in _words(rewrite):
        if word.lower() not in FUNCTION_WORDS and not _forms(word) & known and word.lower() not in out:
            out.append(word.lower())
    return out


def _hedge(words: list[str], at: int) -> bool:
    """Whether words[at] is part of the speaker's hedge: "I" alone as its subject ("Bob and I think"
    reports), then a verb of HEDGES, with at most "'d"/"would"/"do" between."""
    low = [w.lower() for w in words]
    verb = at + 1 if low[at] in ("d", "would", "do") and at + 1 < len(low) else at
    if lexicon.verb_lemma(low[verb]) not in HEDGES:
        return False
    i = verb - 1 if low[verb - 1:verb] == ["i"] else verb - 2 if low[max(0, verb - 2):verb - 1] == ["i"] else -1
    return i >= 0 and (i == 0 or low[i - 1] not in ("and", "or", "nor")) and (i == verb - 1 or low[i + 1] in (
        "d", "would", "do"))


def unrewritable(sentence: str) -> str:
    """Why no rewrite can say what `sentence` states ("" when one may): a word of a class that changes
    what it states (a report, a tense or modal, a quantity word, a subordinator, "or", "only" …)."""
    words = _WORD.findall(sentence.replace("’", "'"))
    for at, word in enumerate(words):
        low, before = word.lower(), words[at - 1].lower() if at else ""
        if word[0].isupper() and low in lexicon.NAME_WORDS:
            continue                                     # Will, May: names
        if _hedge(words, at):
            continue                                     # the speaker's hedge: "I think", "I'd say", "I would say"
        lemma = lexicon.verb_lemma(low)
        if lemma in classes.REPORTS and lemma != "know" and before not in _DETERMINERS:
            return f"'{low}' reports what someone says or believes: a rewrite would state it as a fact"
        if low in _CHANGES_MEANING:
            return f"'{low}' changes what the sentence states, and the controlled language cannot say it"
    return ""


def kept_numbers(rewrite: str, sentence: str) -> list[str]:
    """The numbers of `sentence` that `rewrite` drops ("Two cats are black." is not "Cats are black.")."""
    said = {f for w in _words(rewrite) for f in _forms(w)}
    return [w.lower() for w in _words(sentence) if (w.isdigit() or w.lower() in MUST_KEEP) and not _forms(w) & said]


def negated(text: str) -> bool:
    return any(w.lower() in _NEGATIONS for w in _words(text))


def read(rewrite: str, memory: WorkingMemory, before: list[str]) -> tuple[list[Translation], str]:
    """The grammar's reading of each sentence of `rewrite` (read after the /tell's sentences the
    grammar read itself, `before`, so that a name and a description never meet), or the problem."""
    parts = english.split_sentences(rewrite)
    if not parts:
        return [], "the rewrite is empty"
    if len(parts) > MOST_PARTS:
        return [], f"the rewrite has {len(parts)} sentences (at most {MOST_PARTS})"
    readings = []
    for part, tr, why in fastpath.read(memory, before + parts)[len(before):]:
        if tr is None:
            extra = [w.lower() for w in _words(part) if w.lower() in lexicon.STOP or lexicon.only_function_word(w.lower())]
            drop = f" (leave out {', '.join(repr(w) for w in dict.fromkeys(extra))})" if extra else ""
            return [], f"the grammar cannot read {part!r}" + (f": {why}" if why else "") + drop
        readings.append(tr)
    return readings, ""


def rewrite_messages(sentence: str) -> list[dict[str, str]]:
    # the grammar's reason stays out: "outside the controlled language" tells a model nothing it can
    # use, and talked small models into "no faithful reading"; a repair names the exact problem
    return [{"role": "system", "content": REWRITE_SYSTEM}, {"role": "user", "content": f"Sentence: {sentence}"}]


def same_messages(sentence: str, paraphrase: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": SAME_SYSTEM},
            {"role": "user", "content": f"A: {sentence}\nB: {paraphrase}"}]


def rewrite(llm: LLM, sentence: str, memory: WorkingMemory, *, before: list[str] | None = None,
            repairs: int = 1, into: Rewritten | None = None) -> Rewritten:
    """One refused sentence, rewritten and checked (see the module's docstring). A rewrite the checks
    refuse goes back to the model with the exact problems, at most `repairs` times. Raises LLMError
    when a call fails (no model, timeout, cancelled); a reply that never fits is a problem. `into`
    is filled as the calls go (so a caller knows what an exception cost)."""
    out = into if into is not None else Rewritten(sentence)
    out.problem = unrewritable(sentence)
    if out.problem:                       # no call: what any rewrite would drop is what the sentence says
        return out

    def counted(n: int, problems: list[str]) -> None:
        out.calls += 1

    def check(reply: Rewrite) -> list[str]:
        out.rewrite, out.readings = " ".join(reply.rewrite.split()), []
        if reply.verdict == NONE:
            return []
        if not out.rewrite:
            return [f'give the rewrite, or the verdict "{NONE}"']
        added = new_words(out.rewrite, sentence)
        if added:
            return [f"the rewrite {out.rewrite!r} uses {', '.join(repr(w) for w in added)}, not in the sentence: "
                    "use only the sentence's own words and the language's words"]
        dropped = kept_numbers(out.rewrite, sentence)
        if dropped:
            return [f"the rewrite {out.rewrite!r} drops {', '.join(repr(w) for w in dropped)}"]
        if negated(out.rewrite) != negated(sentence):
            return [f"the rewrite {out.rewrite!r} " + ("says not, which the sentence does not" if negated(out.rewrite)
                                                       else "drops the sentence's negation")]
        out.readings, problem = read(out.rewrite, memory, before or [])
        return [f"{problem}; write it in the controlled language"] if problem else []

    try:
        reply = llm.json_with_repair(rewrite_messages(sentence), Rewrite, check=check, attempts=repairs,
                                     purpose="tell.rewrite", on_attempt=counted)
    except LLMError as err:
        if err.reason != "bad-output":
            raise
        out.problem = f"the model's rewrite was refused: {err.message.split(': ', 1)[-1]}"
        return out
    if reply.verdict == NONE:
        out.problem = "the model finds no faithful reading of it in the controlled language"
        return out
    # the rewrite, not the canonical form ("If X is a cat …"): the round trip made them one reading,
    # and a model judges plain English better
    try:
        judged = llm.json(same_messages(sentence, out.rewrite), Same, purpose="tell.rewrite.check")
    except LLMError as err:
        if err.reason != "bad-output":
            raise
        out.calls += getattr(err, "calls", 1)
        out.problem = f"the check of {out.rewrite!r} answered neither same nor different"
        return out
    out.calls += 1
    if judged.answer != "same":
        out.problem = f"the check says {out.rewrite!r} does not say the same as the sentence"
    return out


def approved(run: Run, approver: Callable[[str], bool] | None, line: str) -> tuple[bool, str]:
    """Whether a memory change a model proposed may be made, and who said so: `agent.approve` auto
    or refuse decides alone; ask puts the line to `approver` (the user), and refuses with no one to
    ask. Emits Approval (the session log records it; a replay answers from it)."""
    mode = run.settings.agent_approve
    if mode in ("auto", "refuse"):
        allowed, by = mode == "auto", "setting"
    elif approver is None:
        allowed, by = False, "nobody"
    else:
        allowed, by = bool(approver(line)), "user"
    run.emit(Approval(run.id, line, allowed, by))
    return allowed, by


def _not_allowed(by: str) -> str:
    return ("the rewrite was declined" if by == "user" else
            "the rewrite was refused: agent.approve is refuse" if by == "setting" else
            "the rewrite was not stored: a model's change needs approval and no one is here to give it "
            "(/set agent.approve auto)")


def _ask_all(swm: SWM, unknown: list[str], read_first: list[str]) -> tuple[dict[str, Rewritten], UserError | None]:
    """Each refused sentence rewritten and checked, or (what was done, the error) when no model answers."""
    try:
        llm = swm.llm
    except UserError as err:
        return {}, err
    parent = swm._node("tell.rewrite", f"rewrite {len(unknown)} sentence(s) in the controlled language")
    done: dict[str, Rewritten] = {}
    gone: LLMError | None = None
    for sentence in unknown:
        swm.run.check()
        if gone is not None:
            done[sentence] = Rewritten(sentence, problem=f"the model could not rewrite it: {gone.message}")
            continue
        r = done[sentence] = Rewritten(sentence)
        try:
            rewrite(llm, sentence, swm.memory, before=read_first, into=r)
        except LLMError as err:
            swm.failed_calls += 1
            r.calls += err.reason not in NO_MODEL          # the call that failed
            if err.reason == "cancelled" or err.reason in NO_MODEL and len(done) == 1:
                swm.llm_calls += r.calls
                if err.reason == "cancelled":
                    raise
                return {}, err
            gone = err if err.reason in STOPS else None
            r.readings, r.problem = [], f"the model could not rewrite it: {err.message}"
        swm.llm_calls += r.calls
        swm._node("tell.sentence", sentence[:80], parent, r.problem or f"→ {r.rewrite}",
                  "failed" if r.problem else "ok")
    return done, None


def tell(swm: SWM, sentences: list[str], plan: list[tuple[str, Translation | None]], *, source: str,
         partial: bool, approver: Callable[[str], bool] | None = None) -> list[Told]:
    """SWM.tell for `tell.model rewrite`: the sentences the grammar read (`plan`) and the rewrites of
    the rest, stored only when every sentence was read (or `partial`) and the rewrites approved
    (`approved`: `approver` asks the user)."""
    unknown = [s for s, tr in plan if tr is None]
    done, no_model = _ask_all(swm, unknown, [s for s, tr in plan if tr is not None])
    if no_model is not None:
        it = "it" if len(unknown) == 1 else "them"
        note = (f"a model could rewrite {it} in the controlled language for the grammar to read "
                f"(shown beside {it}, checked, and stored once approved)")
        if not partial:
            try:
                swm._refuse(sentences, unknown, {}, no_model)
            except TellIncomplete as err:
                err.note = note
                raise
        done = {s: Rewritten(s, problem=swm._needs_model(s) + f" ({no_model.message})") for s in unknown}
    accepted = [done[s] for s in unknown if not done[s].problem]
    if accepted and (partial or len(accepted) == len(unknown)):
        allowed, by = approved(swm.run, approver, "/tell " + " ".join(r.rewrite for r in accepted))
        for r in accepted if not allowed else []:
            r.problem = _not_allowed(by)
    failed = [s for s in unknown if done[s].problem]
    if failed and not partial:
        _refuse(sentences, failed, done)
    told: list[Told] = []
    for sentence, tr in plan:
        swm.run.check()
        if tr is not None:
            told.append(swm._store_translation(sentence, tr, source))
        elif done[sentence].problem:
            told.append(Told(sentence, "none", problem=done[sentence].problem, rewrite=done[sentence].rewrite))
        else:
            told.append(_store(swm, done[sentence], source))
    return told


def _refuse(sentences: list[str], failed: list[str], done: dict[str, Rewritten]) -> None:
    told = [Told(s, "none", problem=done[s].problem, rewrite=done[s].rewrite) if s in failed else
            Told(s, "rewrite" if s in done else "fast", kept=False, rewrite=done[s].rewrite if s in done else "")
            for s in sentences]
    understood = f"{len(sentences) - len(failed)} of {len(sentences)} sentences understood"
    why = done[failed[0]].problem
    raise TellIncomplete(f"{understood}; not understood: {quoted(failed)} ({why[:160]})", told,
                         hint="rephrase, or /tell --partial … keeps the understood ones")


def _store(swm: SWM, done: Rewritten, source: str) -> Told:
    """A rewrite's readings, stored as the sentence's (its NL form, for /why and the document it
    came from), under a model's source (llm:…)."""
    out = Told(done.sentence, "rewrite", rewrite=done.rewrite,
               read_as=said_otherwise(done.rewrite, done.paraphrase))
    for tr in done.readings:
        one = swm._store_translation(done.sentence, dataclasses.replace(tr, nl=done.sentence), "llm:" + source)
        out.items += one.items
        out.removed += one.removed
        out.duplicates += one.duplicates
        out.warning = "; ".join(w for w in (out.warning, one.warning) if w)
    return out
