"""Sentences and questions the grammar cannot read, read by the model through enum choices.

One call per sentence (its own candidates, the schema's predicates), then repairs that can
succeed: the checker's exact message goes back, the repair is sampled above temperature 0, and
a reply identical to one already rejected ends the attempt instead of being sent back again.
A chosen reading is kept only when its rendering keeps to the sentence's words and a second,
independent yes/no call agrees; so are the facts a model restated or picked for a sentence about
named things. Nothing here writes memory; callers store what comes back.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from sym.core.logic.parser import parse_program
from sym.core.logic.terms import Atom, Rule, Var
from sym.core.reason.swm import choice, pairs, prompts
from sym.core.reason.swm.candidates import Const, candidates, choices, clashing, names, shown
from sym.core.reason.swm.choice import Invalid, Menu, goal_schema, statement_schema
from sym.core.reason.swm.choice import goal as check_goal
from sym.core.reason.swm.choice import statements as check_statements
from sym.core.reason.swm.english import lexicon, translate
from sym.core.reason.swm.replies import Tally, parse_reply

if TYPE_CHECKING:
    from sym.core.memory.schema import Schema
    from sym.core.reason.swm.choice import ChosenGoal
    from sym.core.reason.swm.lockstep import Chat

T = TypeVar("T")

REPAIRS = 2                 # repair rounds after the first reply
REPAIR_TEMPERATURE = 0.7    # a repair at 0 tends to return the rejected reply again
_PRONOUN = re.compile(r"\b(he|she|his|her|hers|him|they|them|their|it|its)\b", re.I)
# Words that make a sentence general (a rule, a soft rule): such sentences get the full statement menu.
_GENERAL = re.compile(r"\b(if|when|whenever|all|every|each|any|always|never|usually|often|generally|typically|most|"
                      r"some|no|nobody|none|everyone|everybody|everything|anyone|anything|someone|something|"
                      r"things|people|whoever|whatever|unless)\b", re.I)
# A sentence that opens like a general statement ("If …", "Every …") is read as one when no
# relation between its names was chosen; other sentences with names are not read twice.
_RULE_START = re.compile(r"\s*(if|when|whenever|all|every|each|any|no|nobody|none|everyone|everybody|anyone|"
                         r"someone|something|things|people|whoever|unless)\b", re.I)
BATCH = 4                   # specific sentences read together in one call
VERIFY_REPAIRS = 1          # repair rounds for a yes/no check's reply that breaks its schema


@dataclass
class Reading:
    """What the model made of one sentence: (kind, clause) pairs, or a problem."""

    sentence: str
    clauses: list[tuple[str, Atom | Rule]] = field(default_factory=list)
    problem: str = ""
    vote: str = ""        # several samples read it: what each reading said, and how many (extract_vote.py)
    worded: list[Atom] = field(default_factory=list)    # facts its words state ("his son Tarn"): sym's, not chosen
    note: str = ""        # read, but part of the model's reading was not confirmed (shown as a warning)
    drawn: int = 0        # voted: how many samples were drawn (fewer than asked when the vote settled early)


@dataclass(frozen=True)
class Background:
    """What sentences are read against: memory's `schema`, the predicates the rest of the text
    adds (`extra`, name -> arities), the whole story (`context`; None: the sentences read) and
    the relations memory's rules make hold both ways (`symmetric`)."""

    schema: Schema
    extra: dict[str, set[int]] | None = None
    context: list[str] | None = None
    symmetric: frozenset[str] = frozenset()


def choose(llm: Chat, messages: list[dict[str, Any]], schema: dict[str, Any], check: Callable[[dict[str, Any]], T], *,
           purpose: str, tally: Tally, repairs: int = REPAIRS) -> tuple[T | None, str]:
    """(value, "") from the first reply `check` accepts, else (None, the last problem)."""
    seen: list[str] = []
    options: dict[str, Any] | None = None
    problem = ""
    for attempt in range(repairs + 1):
        reply = llm.chat(messages, purpose=purpose if not attempt else purpose + ".repair", format=schema,
                         options=options)
        tally.calls += 1
        tally.repairs += bool(attempt)
        text = reply.text.strip()
        try:
            return check(parse_reply(text)), ""
        except Invalid as err:
            problem = str(err)
        if text in seen:
            return None, f"{problem} (the model sent the same reply again)"
        seen.append(text)
        messages = prompts.repair_messages(messages, text, problem)
        options = {"temperature": max(REPAIR_TEMPERATURE, float(getattr(llm.settings, "temperature", 0) or 0))}
    return None, problem


def predicate_menu(schema: Schema, extra: dict[str, set[int]] | None = None) -> tuple[dict[str, tuple[int, ...]], dict[str, Any]]:
    """Known predicates (name → arities) and their templates, plus `extra` (e.g. from the
    same /tell's templated sentences, not stored yet). Strong negation shares the name."""
    arities: dict[str, set[int]] = {}
    templates: dict[str, str] = {}
    for key, pred in schema.predicates.items():
        name, _, arity = key.rpartition("/")
        name = name.lstrip("~")
        arities.setdefault(name, set()).add(int(arity))
        if getattr(pred, "template", ""):
            templates[f"{name}/{arity}"] = pred.template
    for name, found in (extra or {}).items():
        arities.setdefault(name, set()).update(found)
    return {n: tuple(sorted(a)) for n, a in arities.items()}, templates


def extract(llm: Chat, sentences: list[str], background: Background, *, tally: Tally,
            node: Callable[[str, str], object] | None = None) -> list[Reading]:
    """Each sentence read by the model. Sentences where two named things meet are read pair by
    pair when memory has two-place relations (pairs.py); other sentences about named things
    ("specific") are restated BATCH at a time in the controlled language, one fact a line, and
    read back by the grammar; general ones are read one at a time with the full statement menu
    (kind, conditions); a general sentence with a pronoun is shown the sentence before it (from
    the same unread text, never from templated ones). Every sentence the model gave clauses is
    then checked by an independent yes/no call (`verify`, one per sentence, all in parallel); a
    sentence of facts is shown there with the one before it in the story (`background.context`)
    when it has a pronoun or its facts name a thing it does not; facts of a relation memory makes
    symmetric are not asked again turned round."""
    predicates, templates = predicate_menu(background.schema, background.extra)
    out: dict[str, Reading] = {}
    batch: list[str] = []
    pending: list[tuple[Reading, str]] = []     # readings to verify, with the sentence as the check shows it
    story = background.context or sentences
    first = {s: at for at, s in reversed(list(enumerate(story)))}

    def read(reading: Reading) -> None:
        out[reading.sentence] = reading
        if reading.clauses:
            at = first.get(reading.sentence, 0)
            before = story[at - 1] if at else None
            # a rule told before the story ("If B is the son of A, ...") is not what a pronoun points back to
            pending.append((reading, _as_checked(reading, None if before and _RULE_START.match(before) else before)))
        elif node is not None:
            node(reading.sentence, reading.problem)

    for reading in _read_pairs(llm, [s for s in sentences if candidates(s)], predicates, templates, tally):
        if reading.clauses or not _RULE_START.match(reading.sentence):   # else: read as a general statement
            read(reading)

    def flush() -> None:
        if batch:
            for reading in _restate(llm, list(batch), predicates, tally):
                read(reading)
            batch.clear()

    for at, sentence in enumerate(sentences):
        if sentence in out:
            continue
        if candidates(sentence) and not _GENERAL.search(sentence):
            batch.append(sentence)
            if len(batch) == BATCH:
                flush()
            continue
        flush()
        reading, shown_sentence = _read_statements(llm, sentence, sentences[at - 1] if at else None,
                                                   background.schema, predicates, templates, tally)
        out[sentence] = reading
        if reading.clauses:
            pending.append((reading, shown_sentence))
        elif node is not None:
            node(sentence, reading.problem)
    flush()
    pending = [(r, shown) for r, shown in pending if not _names_a_description(r, node)]
    verify(llm, pending, templates, tally, background.symmetric)
    for reading, _sentence in pending:
        if node is not None:
            node(reading.sentence, reading.problem)
    return [out[s] for s in sentences]


def _names_a_description(reading: Reading, node: Callable[[str, str], object] | None) -> bool:
    """Whether the reading uses a constant its sentence writes both as a name and as a description
    ("Bill pays the bill": sym would name both `bill`); such a reading is dropped, never stored."""
    both = clashing(reading.sentence)
    args = {a for _, c in reading.clauses
            for atom in ([c] if isinstance(c, Atom) else [c.head, *c.body] if isinstance(c, Rule) else [])
            if isinstance(atom, Atom) for a in atom.args}
    shared = sorted(str(a) for a in args if a in both)
    if not shared:
        return False
    reading.clauses = []
    reading.problem = f"'{shared[0]}' is both a name and a description in the sentence: they would be one thing"
    if node is not None:
        node(reading.sentence, reading.problem)
    return True


def _with_before(sentence: str, before: str | None) -> str:
    """The sentence as a check or a reading shows it, with the sentence before it when given."""
    return f"{sentence}\n(Before it: {before})" if before else sentence


def _as_checked(reading: Reading, before: str | None) -> str:
    """A sentence of facts as its check shows it: with the sentence before it when it has a
    pronoun, or names fewer things than its facts do (a story's "his son", a fact homed here)."""
    named = set(candidates(reading.sentence))
    args = {a for _, c in reading.clauses if isinstance(c, Atom) for a in c.args}
    needs = _PRONOUN.search(reading.sentence) or not args <= named
    return _with_before(reading.sentence, before if needs else None)


def verify(llm: Chat, pending: list[tuple[Reading, str]], templates: dict[str, str], tally: Tally,
           symmetric: frozenset[str] = frozenset()) -> None:
    """A second opinion on each reading, which does not trust the first: one yes/no call per
    sentence, all in parallel, asking whether the sentence says or clearly implies what sym's
    rendering of the reading says. The check is asked at the settings' temperature even inside a
    sampled reading (llm.samples > 1): drawn at the sample temperature, one unlucky seed said "no"
    to every right reading of a story. A "no", or a reply still outside its schema after
    VERIFY_REPAIRS repairs, empties the reading and names the problem.

    A "yes" counts only when the check can tell the reading from its reversal: a reading with a
    two-place fact ("Louis is the husband of Beverly") is asked again reversed ("Beverly is the
    husband of Louis"), and a "yes" to that too empties it, but for the facts its words state
    themselves ("his son Tarn"), which sym read and the model did not choose. The reference 1.5B
    model answered yes to every reading and every reversal it was shown, wrong ones included:
    its yes said nothing.
    A sentence that joins the two by "and" ("Ann and Bob are married") states both ways and is
    not asked again, nor is a reading made only of what its words state, nor a fact of a relation
    memory makes symmetric ("If A is the spouse of B then B is the spouse of A"): its reversal holds
    too, so a yes to both is right."""
    if not pending:
        return
    def render(clauses: list[tuple[str, Atom | Rule]], sentence: str) -> str:
        things = {str(a) for _, c in clauses if isinstance(c, Atom) for a in c.args}
        return _as_named(choice.render_reading(clauses, templates), sentence, things)
    shown = [render(r.clauses, sentence) for r, sentence in pending]
    answers, problems = _checks(llm, [prompts.verify_messages(sentence, text)
                                      for (_, sentence), text in zip(pending, shown)], tally, "tell.verify")
    controls = {i: c for i, (reading, _) in enumerate(pending) if answers[i] and not _all_worded(reading)
                for c in [_reversed(reading, symmetric)] if c}
    said_too, _ = _checks(llm, [prompts.verify_messages(pending[i][1], render(c, pending[i][1]))
                                for i, c in controls.items()], tally, "tell.verify.control")
    for i, agreed in zip(controls, said_too):
        if agreed is not False and pending[i][0].worded:     # what the words state stands; the model's choices go
            reading = pending[i][0]
            dropped = [c for _, c in reading.clauses if not (isinstance(c, Atom) and c in reading.worded)]
            reading.clauses = [("fact", a) for a in reading.worded]
            unconfirmed = render([("fact", c) for c in dropped], pending[i][1])
            reading.note = (f"kept only what its words state: the model's {unconfirmed!r} is not confirmed, since "
                            f"the check also agreed with the reversed reading {render(controls[i], pending[i][1])!r}")
        elif agreed is not False:
            answers[i] = None
            problems[i] = (f"the check also agreed with the reversed reading "
                           f"{render(controls[i], pending[i][1])!r}, so its yes does not tell them apart")
    for (reading, _sentence), text, answer, problem in zip(pending, shown, answers, problems):
        if answer:
            continue
        said = f"the model's reading {text!r}"
        reading.problem = (f"{said} does not say what the sentence says (an independent check answered no)"
                           if answer is False else f"{said} was not confirmed: {problem}")
        reading.clauses = []


def symmetric(rules: Iterable[Atom | Rule]) -> frozenset[str]:
    """The two-place relations that `rules` make hold both ways: `r(X, Y) :- r(Y, X).`"""
    out = set()
    for rule in rules:
        if isinstance(rule, Rule) and rule.head is not None and len(rule.body) == 1:
            head, body = rule.head, rule.body[0]
            if isinstance(body, Atom) and body.pred == head.pred and len(head.args) == 2 and not head.neg and \
                    not body.neg and all(isinstance(t, Var) for t in head.args) and head.args[0] != head.args[1] and \
                    body.args == (head.args[1], head.args[0]):
                out.add(head.pred)
    return frozenset(out)


def _all_worded(reading: Reading) -> bool:
    """Every clause of the reading is a fact its words state: a turned-round check could change nothing."""
    return bool(reading.worded) and all(isinstance(c, Atom) and c in reading.worded for _, c in reading.clauses)


def _as_named(text: str, sentence: str, things: set[str]) -> str:
    """`text` with each of the `things` the sentence writes as a name written so ("the son of
    james" → "the son of James"): a check reads names as the sentence gives them."""
    written = {const: words for const, words in names(sentence) if const in things}
    if not written:
        return text
    pattern = "|".join(re.escape(c) for c in sorted(written, key=len, reverse=True))
    return re.sub(rf"\b(?:{pattern})\b", lambda m: written[m.group(0)], text)


def _checks(llm: Chat, asks: list[list[dict[str, Any]]], tally: Tally, purpose: str) -> tuple[list[bool | None],
                                                                                            list[str]]:
    """Yes/no checks asked together, each repaired alone while its reply is outside the schema →
    (True/False, or None when still unusable; the problem of each unusable one)."""
    answers: list[bool | None] = [None] * len(asks)
    problems = [""] * len(asks)
    todo = list(range(len(asks)))
    greedy = float(getattr(llm.settings, "temperature", 0) or 0)
    options: dict[str, Any] = {"temperature": greedy}    # a judgment, never a sample: K samples' checks agree
    for attempt in range(VERIFY_REPAIRS + 1):
        if not todo:
            break
        replies = llm.chat_many([asks[i] for i in todo], purpose=purpose + (".repair" if attempt else ""),
                                format=choice.verdict_schema(), options=options)
        tally.calls += len(todo)
        tally.repairs += len(todo) if attempt else 0
        again = []
        for i, reply in zip(todo, replies):
            text = reply.text.strip()
            try:
                answers[i] = choice.verdict(parse_reply(text))
            except Invalid as err:
                problems[i] = str(err) if "answer" in str(err) else f"{err}; {choice.VERDICT_FORM}"
                asks[i] = prompts.repair_messages(asks[i], text, problems[i])
                again.append(i)
        todo = again
        options = {"temperature": max(REPAIR_TEMPERATURE, greedy)}
    return answers, [f"the check's reply was unusable ({p})" if a is None else "" for a, p in zip(answers, problems)]


def _reversed(reading: Reading, symmetric: frozenset[str] = frozenset()) -> list[tuple[str, Atom | Rule]] | None:
    """The reading with each two-place fact between two different things turned round, or None
    when it has none, already says each both ways, or its sentence joins the two by "and". Facts
    of `symmetric` relations stay as they are."""
    facts = [c for _, c in reading.clauses if isinstance(c, Atom) and len(c.args) == 2 and c.args[0] != c.args[1]
             and c.pred not in symmetric]
    turned = {c: Atom(c.pred, (c.args[1], c.args[0]), c.neg) for c in facts}
    if not facts or set(turned.values()) == set(facts):
        return None
    for a, b in (c.args for c in facts):
        x, y = (re.escape(str(t).replace("_", " ")) for t in (a, b))
        if re.search(rf"\b(?:{x}\s+and\s+{y}|{y}\s+and\s+{x})\b", reading.sentence, re.I):
            return None
    return [(kind, turned.get(c, c) if isinstance(c, Atom) else c) for kind, c in reading.clauses]


def _read_pairs(llm: Chat, sentences: list[str], predicates: dict[str, tuple[int, ...]], templates: dict[str, str],
                tally: Tally) -> list[Reading]:
    """Sentences where two named things meet, when the memory has two-place relations: the model
    fills "A ___ B" from the relations' phrases for every ordered pair (pairs.py)."""
    menu = pairs.relations(predicates, templates)
    if not menu or not sentences:
        return []
    chosen = pairs.choose(llm, sentences, menu, tally=tally)
    readings: list[Reading] = []
    for at in sorted(chosen.asked):
        facts = chosen.facts.get(at, [])
        problem = "" if facts else (chosen.problem or "the model chose no relation between its named things")
        readings.append(Reading(sentences[at], [("fact", a) for a in facts], problem,
                                worded=[a for a in facts if a in chosen.worded]))
    return readings


def _read_statements(llm: Chat, sentence: str, before: str | None, schema: Schema, predicates: dict[str, tuple[int, ...]],
                     templates: dict[str, str], tally: Tally) -> tuple[Reading, str]:
    """The sentence read through the statement menu, its rendering checked against the sentence's
    words (a reading that adds a word goes back to the model as a repair) → (reading, the
    sentence as the model saw it)."""
    things = choices(sentence, schema)
    if before:
        things += [c for c in candidates(before) if c not in things]
    menu = Menu(predicates, things, prompts.EXAMPLE_WORDS)
    context = before if before and _PRONOUN.search(sentence) else ""
    shown_sentence = _with_before(sentence, context or None)
    messages = prompts.extraction_messages(shown_sentence, prompts.predicate_lines(predicates, templates),
                                           menu.arguments)
    found, problem = choose(llm, messages, statement_schema(menu),
                            lambda data: choice.check_reading(check_statements(data, menu, sentence), sentence, templates,
                                                       context),
                            purpose="tell", tally=tally)
    return Reading(sentence, found or [], problem), shown_sentence


_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*")


def fact_words(predicates: dict[str, tuple[int, ...]], limit: int = 40) -> tuple[list[str], list[str]]:
    """(relations, properties) the model may use: the words of the known `r_of/2` predicates
    ("mother-in-law") and of the one-place ones that read as adjectives."""
    relations, properties = [], []
    for name in sorted(predicates):
        if 2 in predicates[name] and name.endswith("_of") and name != "_of":
            relations.append(name.removesuffix("_of").replace("_", "-"))
        if 1 in predicates[name] and name.isalpha() and lexicon.can_be_adjective(name):
            properties.append(name)
    return relations[:limit], properties[:limit]


def read_restated(text: str, allowed: set[Const], sentence: str) -> tuple[list[Atom], list[str]]:
    """Facts from a model's restatement: each line read by the grammar (never evaluated); a fact
    counts only when it is ground and names things from the sentences. → (facts, lines not used)."""
    facts: list[Atom] = []
    unused: list[str] = []
    for raw in text.splitlines():
        line = _BULLET.sub("", raw).strip()
        if not line:
            continue
        tr = translate(line if line.endswith(".") else line + ".")
        atoms = [loc.clause for c in (tr.clauses if tr is not None and tr.kind == "fact" else [])
                 for loc in parse_program(c)]
        ok = [a for a in atoms if isinstance(a, Atom) and set(a.args) <= allowed
              and (a.pred not in prompts.EXAMPLE_WORDS or a.pred in sentence.lower())]
        if not ok or len(ok) != len(atoms):
            unused.append(line)
        facts += [a for a in ok if a not in facts]
    return facts, unused


def _restate(llm: Chat, batch: list[str], predicates: dict[str, tuple[int, ...]], tally: Tally) -> list[Reading]:
    """Sentences about named things restated by the model in the controlled language, one fact a
    line, read back by the grammar: the model picks forms and names, the grammar decides."""
    mentioned = [candidates(s) for s in batch]
    allowed = {c for found in mentioned for c in found}
    text = " ".join(batch)
    messages = prompts.restate_messages(batch, *fact_words(predicates))
    facts: list[Atom] = []
    problem = ""
    seen: list[str] = []
    for attempt in range(REPAIRS + 1):
        options = {"temperature": REPAIR_TEMPERATURE} if attempt else None
        reply = llm.chat(messages, purpose="tell" if not attempt else "tell.repair", options=options)
        tally.calls += 1
        tally.repairs += bool(attempt)
        facts, unused = read_restated(reply.text, allowed, text)
        if facts:
            break
        problem = "no line is a fact in the listed forms about the names in the sentences"
        if reply.text.strip() in seen:
            problem += " (the model sent the same reply again)"
            break
        seen.append(reply.text.strip())
        messages = prompts.restate_repair(messages, reply.text, problem + (f", e.g. {unused[0]!r}" if unused else ""))
    readings = [Reading(s) for s in batch]
    for atom in facts:
        readings[_home(set(atom.args), [set(m) for m in mentioned])].clauses.append(("fact", atom))
    for reading in readings:
        if not reading.clauses:
            reading.problem = problem or "the model stated no fact from it"
    return readings


def _home(args: set[Const], mentioned: list[set[Const]]) -> int:
    """The sentence a restated fact is checked with: the first that names all its things, else the
    first that names them with the sentence before it (its check shows both), else the first
    that names one."""
    for i, named in enumerate(mentioned):
        if args <= named:
            return i
    for i in range(1, len(mentioned)):
        if args <= mentioned[i - 1] | mentioned[i]:
            return i
    return next((i for i, named in enumerate(mentioned) if args & named), 0)


def read_goal(llm: Chat, question: str, schema: Schema, *, tally: Tally) -> ChosenGoal:
    """(kind, Atom) for a question, or raises Invalid with the last problem."""
    predicates, templates = predicate_menu(schema)
    things = choices(question, schema)
    menu = Menu(predicates, things, prompts.EXAMPLE_WORDS, variables=("X", "Y"))
    messages = prompts.goal_messages(question, prompts.predicate_lines(predicates, templates), menu.arguments)
    found, problem = choose(llm, messages, goal_schema(menu), lambda data: check_goal(data, menu, question),
                            purpose="ask.goal", tally=tally)
    if found is None:
        raise Invalid(problem)
    return found


__all__ = ["Reading", "Tally", "extract", "read_goal", "choose", "parse_reply", "shown"]
