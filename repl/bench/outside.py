"""Items of suites sym was not tuned on (FOLIO, LogicalDeduction, AR-LSAT, StrategyQA) for
`sym bench logic`: loading and checking the two file formats, and answering one item through the
English bridge (ask), a checked program (prove), both (auto), or the model alone (the baseline).
The chat path (one chat turn of the agent per item) is driven from repl/bench.py, which passes its
`answer` to `score_items`; what such a turn typed and how its answer is read are here.

Knows nothing of screens or the command line; the gold answer never reaches the model, and of a
StrategyQA item only the question does (its facts and decomposition are gold too).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sym.core.errors import UserError
from sym.core.memory.working import WorkingMemory
from sym.core.reason.sampling import AGREE
from sym.core.reason.swm.datasets import Problem
from sym.core.reason.swm.english import split_sentences
from sym.core.run import Run
from sym.repl.bench.scoring import Outcome, TurnUse, failed_outcome

if TYPE_CHECKING:

    from sym.core.llm.facade import LLM

FORMATS = ("logic", "strategyqa")
PATHS = ("ask", "prove", "auto", "chat")
LETTERS = "ABCDEFG"
TRUE, FALSE, UNCERTAIN = "true", "false", "uncertain"
TRUTH = "truth"            # an item whose options are True / False / Uncertain (or Unknown)
CHOICE, YES_NO = "choice", "yesno"

_OPTION_PREFIX = re.compile(r"^\s*\(?([A-Za-z])\s*[).:]\s*")
_TRUTH_WORDS = {"true": TRUE, "false": FALSE, "uncertain": UNCERTAIN, "unknown": UNCERTAIN}
_ASKS_TRUTH = re.compile(r"\btrue\b.*?\bfalse\b.*?\b(?:uncertain|unknown)\b", re.I | re.S)


@dataclass(frozen=True)
class SuiteItem:
    """One outside item. `kind` is truth, choice or yesno; `options` are the option texts without
    their letters; `gold` is a normalised answer: true/false/uncertain, or a letter."""

    id: str
    kind: str
    context: str
    question: str
    gold: str
    options: tuple[str, ...] = ()
    values: tuple[str, ...] = ()     # truth items: the value each option letter stands for

    @property
    def letters(self) -> str:
        return LETTERS[:len(self.options)]

    def value_of(self, letter: str) -> str | None:
        """A truth item's value for an option letter; a choice item's letter itself."""
        if not letter or letter not in self.letters:
            return None
        return self.values[self.letters.index(letter)] if self.kind == TRUTH else letter


# -- loading ---------------------------------------------------------------------------------

def load_items(file: str | Path, fmt: str = "auto") -> tuple[str, list[SuiteItem]]:
    """(format, items) of a JSON file of outside items; UserError (one line) for a bad file."""
    path = Path(file).expanduser()
    if fmt not in ("auto", *FORMATS):
        raise UserError(f"unknown format {fmt!r}", hint="auto, logic or strategyqa")
    if not path.is_file():
        raise UserError(f"no data file {str(file)!r}")
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise UserError(f"{path.name}: not readable JSON ({err})", hint="the file holds one JSON list of items") from None
    if not isinstance(records, list) or not records or not all(isinstance(r, dict) for r in records):
        raise UserError(f"{path.name}: expected a non-empty JSON list of objects")
    if fmt == "auto":
        fmt = detect_format(records[0], path.name)
    read = _logic_item if fmt == "logic" else _strategyqa_item
    return fmt, [read(record, f"{path.name} item {i}") for i, record in enumerate(records)]


def detect_format(record: dict[str, Any], where: str = "the file") -> str:
    """logic ({id, context, question, options, answer}) or strategyqa ({qid, question, answer: bool})."""
    if "options" in record or "context" in record:
        return "logic"
    if "qid" in record or isinstance(record.get("answer"), bool):
        return "strategyqa"
    raise UserError(f"{where}: neither format: its first item has keys {', '.join(sorted(record)) or 'none'}",
                    hint="logic items have id, context, question, options, answer; strategyqa items qid, question, "
                         "answer")


def _need(record: dict[str, Any], key: str, where: str, kind: type | tuple[type, ...] = str) -> Any:
    if key not in record:
        raise UserError(f"{where}: missing key {key!r}")
    if not isinstance(record[key], kind):
        raise UserError(f"{where}: {key!r} has the wrong type ({type(record[key]).__name__})")
    return record[key]


def option_text(option: str) -> str:
    return _OPTION_PREFIX.sub("", option, count=1).strip()


def _logic_item(record: dict[str, Any], where: str) -> SuiteItem:
    pid = str(_need(record, "id", where, (str, int)))
    context, question = _need(record, "context", where), _need(record, "question", where)
    options = _need(record, "options", where, list)
    if not 2 <= len(options) <= len(LETTERS) or not all(isinstance(o, str) for o in options):
        raise UserError(f"{where}: 'options' must be 2 to {len(LETTERS)} strings")
    for i, option in enumerate(options):
        m = _OPTION_PREFIX.match(option)
        if m and m.group(1).upper() != LETTERS[i]:
            raise UserError(f"{where}: option {i + 1} is lettered {m.group(1)!r}; letter options A, B, C, … in order")
    texts = tuple(option_text(o) for o in options)
    gold = str(_need(record, "answer", where)).strip().strip("()").upper()
    if gold not in LETTERS[:len(texts)]:
        raise UserError(f"{where}: answer {record['answer']!r} is not one of its option letters")
    words = [_TRUTH_WORDS.get(t.lower().rstrip(".")) for t in texts]
    if None not in words and len(set(words)) == len(words) and set(words) in ({TRUE, FALSE, UNCERTAIN}, {TRUE, FALSE}):
        # True / False / Uncertain (FOLIO), or True / False alone (ProntoQA): the claim is asked
        values = tuple(w for w in words if w)
        return SuiteItem(pid, TRUTH, context, question, values[LETTERS.index(gold)], texts, values)
    return SuiteItem(pid, CHOICE, context, question, gold, texts)


def _strategyqa_item(record: dict[str, Any], where: str) -> SuiteItem:
    pid = str(_need(record, "qid", where, (str, int)))
    answer = _need(record, "answer", where, bool)
    return SuiteItem(pid, YES_NO, "", _need(record, "question", where), TRUE if answer else FALSE)


def claim_of(question: str) -> str:
    """The statement a truth question asks about: what follows the '?' of "… true, false, or
    uncertain?" (the whole question when it does not ask that way)."""
    text = question.strip()
    m = _ASKS_TRUTH.search(text)
    end = text.find("?", m.end()) if m else -1
    tail = text[end + 1:].strip() if end >= 0 else ""
    return tail or text


# -- answering -------------------------------------------------------------------------------

def ask_item(item: SuiteItem, llm: LLM | None, *, samples: int = 1) -> Outcome:
    """Through the English bridge: tell the context, ask the claim (or each option) in a fresh
    working memory, as /tell and /ask do. "unknown" counts only when every sentence was read."""
    from sym.core.reason.swm.reasoner import SWM

    if item.kind == YES_NO or not item.context.strip():
        return Outcome(reason="ask: no context to tell")
    swm = SWM(WorkingMemory(), Run.using(llm, f"bench-{item.id}"), merge="off", samples=samples)   # readings voted on
    try:
        told = swm.tell(split_sentences(item.context), partial=True)
        unread = sum(1 for t in told if t.problem)
        if item.kind == TRUTH:
            # no Uncertain option (ProntoQA's True / False): the suite poses a closed world
            answer = swm.ask(claim_of(item.question), mode="hybrid", open_world=UNCERTAIN in item.values,
                             fallback=False).answer.strip().lower()
            if answer in (TRUE, FALSE):
                return Outcome(answer)
            if answer == "unknown" and not unread:
                return Outcome(UNCERTAIN)
            if answer == "inconsistent":      # the context, as read, derives the claim and its negation
                return Outcome(reason="ask: the context derives both the claim and its negation")
            return Outcome(reason=f"ask: {unread} of {len(told)} sentences not read" if unread
                           else "ask: no answer")
        holds = [letter for letter, option in zip(item.letters, item.options, strict=True)
                 if swm.ask(option, mode="hybrid", open_world=True, fallback=False).answer.strip().lower() == TRUE]
    except UserError as err:
        out = failed_outcome(err)
        out.reason = "ask: " + out.reason
        return out
    if len(holds) == 1:
        return Outcome(holds[0])
    return Outcome(reason=f"ask: {len(holds)} options hold" + (f", {unread} sentences not read" if unread else ""))


def prove_item(item: SuiteItem, llm: LLM | None, *, proof_format: str = "json", style: str = "whole",
               samples: int = 1) -> Outcome:
    """Through programs the model writes and Z3 checks (core/reason/pot): `samples` of them, at
    least AGREE, and their vote (a tie, one reading alone, or none that ran: undecided, the vote
    in the reason)."""
    if llm is None:
        return Outcome(reason="no model")
    from sym.core.reason.pot.tasks import Encoding, decide_claim

    encoding = Encoding(fmt=proof_format, style=style)
    attempts = llm.settings.proof_attempts
    samples = max(AGREE, samples)        # a program decides an item only when two readings agree
    run = Run.using(llm, f"bench-{item.id}")      # the model's settings: proof timeout, attempts
    try:
        if item.kind == CHOICE:
            from sym.repl.bench.lsat import answer_lsat  # the proof DSL: loaded for a choice item

            problem = Problem("outside", item.id, split_sentences(item.context), [], item.question, "",
                              options=list(item.options), context=item.context)
            letter, detail = answer_lsat(problem, run, attempts, encoding=encoding, samples=samples)
            ran = bool(detail.get("ran", detail.get("statuses")))
            if letter and letter in item.letters:
                return Outcome(letter, ran, vote=detail.get("vote", ""), unverified=bool(detail.get("fallback")),
                               reason="the model picked among the options the program left" if detail.get("fallback")
                               else "")
            return Outcome(None, ran, detail.get("reason") or detail.get("error") or "no answer", vote=detail.get("vote", ""),
                           error=detail.get("error") or "")
        claim = claim_of(item.question) if item.kind == TRUTH else item.question
        status, detail = decide_claim(item.context, claim, run, encoding=encoding, attempts=attempts, samples=samples)
    except UserError as err:
        return failed_outcome(err)
    ran = bool(detail.get("ran"))
    answer = {"proved": TRUE, "refuted": FALSE}.get(status or "")
    if status == "unknown" and item.kind == TRUTH:
        answer = UNCERTAIN
    if answer is None:
        why = "the program left the claim unknown" if status == "unknown" else "no answer"
        return Outcome(None, ran, detail.get("reason") or detail.get("error") or why, vote=detail.get("vote", ""),
                       error=detail.get("error") or "")
    return Outcome(answer, ran, vote=detail.get("vote", ""))


def answer_item(item: SuiteItem, llm: LLM | None, path: str, **encoding: Any) -> Outcome:
    if path == "ask":
        return ask_item(item, llm, samples=int(encoding.get("samples", 1)))
    if path == "prove":
        return prove_item(item, llm, **encoding)
    if path != "auto":     # chat: a turn of the shell's agent, which core cannot run (score_items' `answer`)
        raise UserError(f"the {path} path needs its own answer function", hint="sym bench logic --path " + path)
    asked = ask_item(item, llm, samples=int(encoding.get("samples", 1)))
    return asked if asked.answer is not None else prove_item(item, llm, **encoding)


def chat_text(item: SuiteItem) -> str:
    """What the chat path types for an item: its context, a blank line, then the question as a
    user would ask it (a truth item's claim, a choice item's lettered options)."""
    if item.kind == TRUTH:
        claim = claim_of(item.question).strip().rstrip(".?!").strip()
        question = f"Is it true that {claim}? Answer true, false or uncertain."
    elif item.kind == CHOICE:
        options = "\n".join(f"{x}) {o}" for x, o in zip(item.letters, item.options, strict=True))
        question = f"{item.question.strip()}\n{options}\nAnswer with the letter."
    else:
        question = item.question.strip()
    return f"{item.context.strip()}\n\n{question}" if item.context.strip() else question


def chat_outcome(item: SuiteItem, verdicts: list[str], reply: str | None, turn: TurnUse) -> Outcome:
    """A chat turn's answer to an item: a truth item's last /ask verdict (`verdicts`, in order),
    else what the model's own text says (unverified)."""
    verdict = next((v for v in reversed(verdicts) if v in (TRUE, FALSE, "unknown")), "")
    if item.kind == TRUTH and verdict:
        return Outcome(UNCERTAIN if verdict == "unknown" else verdict, verified=True, turn=turn)
    text = reply or ""
    answer = (truth_word(text) if item.kind == TRUTH else yes_no(text) if item.kind == YES_NO
              else pick_letter(text, item.letters) or None)
    if answer is not None:       # the model's own words: an answer, but not sym's decision
        return Outcome(answer, turn=turn, from_text=True, reason="the model's text (unverified)")
    why = "the turn ended with no reply" if reply is None else "the reply named no answer"
    if verdicts and verdicts[-1] == "inconsistent":
        why += "; /ask found the context derives both the claim and its negation"
    return Outcome(reason="chat: " + why, turn=turn)


PICK = ("Solve the problem. Think it through, then give the letter of the right option on the last line, "
        "as: Answer: X")
YES_NO_SYSTEM = ("Answer the yes/no question. Think it through, then give yes or no on the last line, "
                 "as: Answer: yes")


def pick_letter(text: str, letters: str) -> str:
    """The option letter a reply names (its last "Answer: X", else its last lone letter); '' when none."""
    named = (re.findall(r"(?i:answer)\s*(?:(?i:is)\s*)?[:\-]?\s*\**\(?([A-G])\b", text)
             or re.findall(r"\b([A-G])\b", text))
    chosen = [x for x in reversed(named) if x in letters]
    return chosen[0] if chosen else ""


def yes_no(text: str) -> str | None:
    """true/false from a reply's final answer (yes/no, true/false); None when it says neither."""
    from sym.core.reason.swm.prompts import final_answer

    found = re.findall(r"\b(yes|no|true|false)\b", final_answer(text).lower())
    return None if not found else TRUE if found[0] in ("yes", "true") else FALSE


def truth_word(text: str) -> str | None:
    """true/false/uncertain from a reply's final answer (uncertain/unknown, or yes/no when it says
    none of the three); None when it says none."""
    from sym.core.reason.swm.prompts import final_answer

    said = final_answer(text).lower()
    found = re.findall(r"\b(not true|true|false|uncertain|unknown|yes|no)\b", said)
    words = [w for w in found if w not in ("yes", "no")] or found
    if not words:
        return None
    return {"not true": FALSE, "no": FALSE, "false": FALSE, "true": TRUE, "yes": TRUE}.get(words[0], UNCERTAIN)


BASELINE_SEED = 34     # the baseline's own request: never answered by the fallback's cached one


def baseline_item(item: SuiteItem, llm: LLM, *, own_key: bool = False) -> str | None:
    """The model alone: one chain-of-thought call; its answer, normalised as the gold is. With
    `own_key` (the baseline, not the fallback) the request carries a seed of its own, so the
    call log never serves it the fallback's reply to the same prompt."""
    sampling = {"seed": BASELINE_SEED} if own_key else None
    purpose = "bench.baseline" if own_key else "bench.fallback"
    if item.kind == YES_NO:
        reply = llm.chat([{"role": "system", "content": YES_NO_SYSTEM},
                          {"role": "user", "content": f"Question: {item.question}"}], purpose=purpose, options=sampling)
        return yes_no(reply.text)
    options = "\n".join(f"{x}) {o}" for x, o in zip(item.letters, item.options, strict=True))
    user = (f"{item.context.strip()}\n\nQuestion: {item.question.strip()}\n{options}\n\n"
            f"Answer with one of: {', '.join(item.letters)}.")
    reply = llm.chat([{"role": "system", "content": PICK}, {"role": "user", "content": user}],
                     purpose=purpose, options=sampling)
    return item.value_of(pick_letter(reply.text, item.letters))
