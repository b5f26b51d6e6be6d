"""Questions → goals: yes/no questions and statements to judge (truth), wh-questions (values),
"How is X related to Y?" (relation). Answers name things in the user's words ("Bob", "the
bald eagle", "wolves"). Like statements, a question is understood only with one meaning."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sym.core.logic.terms import Atom, Rule, Var, format_const
from sym.core.reason.swm.english import lexicon, measures, parse, state, surface
from sym.core.reason.swm.english.scope import _pred
from sym.core.reason.swm.english.semantics import Meaning, Refused, Rejected, Scope, _kids, _toks, gnoun
from sym.core.reason.swm.english.sentences import split_sentences
from sym.core.reason.swm.english.statements import _known, meanings, readings, translate

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from lark import Tree

    from sym.core.reason.swm.english.lexicon import Word


@dataclass(frozen=True)
class Goal:
    """What a question asks. truth: a ground statement (true/false/unknown); values: the
    bindings of a query's variables; relation: which R_of(X, Y) holds between args; every: whether
    each one of a restriction satisfies a literal (`forall(cat(X), black(X))`; args: the restriction,
    the literal, the noun), answered by swm/universal.py."""

    kind: str
    query: str
    args: tuple[Any, ...]
    question: str
    closed: bool = False        # memory knows all the answers (a container's contents): none is "nothing"

    def render(self, value: object, namer: Callable[[object], str | None] | None = None) -> str:
        """The answer in words; `namer(constant)` may say how the user wrote a thing."""
        if self.kind in ("truth", "every"):
            word = str(value).lower()
            return {"true": "True", "false": "False"}.get(word, "Unknown")
        if self.kind == "relation":
            rel = str(value).removesuffix("_of").replace("_", "-")
            x, y = _relation_names(self.question) or tuple(show_name(a) for a in self.args)
            return f"{x} is the {rel} of {y}."
        return _render_values(self.question, value, namer)


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def show_name(const: object) -> str:
    """A constant as the user would write it: `box_0` → "Box 0", 'bald eagle' → "the bald
    eagle", a kind (`mice`) as it is."""
    text = str(const)
    if " " in text:
        return f"the {text}"
    if lexicon.is_plural_noun(text) and lexicon.parts_of_speech(text):
        return text
    return " ".join(w.capitalize() for w in text.split("_"))


def _render_values(question: str, value: object, namer: Callable[[object], str | None] | None = None) -> str:
    rows = value if isinstance(value, (list, tuple)) else [value]
    consts: list[Any] = []
    for row in rows:
        vals = list(row.values()) if isinstance(row, dict) else [row]
        consts.extend(v for v in vals if v not in consts)
    who = question.strip().lower().startswith("who")
    if question.strip().lower().startswith("how") or consts and all(_number(c) for c in consts):
        return ", ".join(format_const(c) for c in consts)       # a count, an age: numbers as they are
    if not consts:
        return "nobody" if who else "nothing"
    if namer is not None:
        return ", ".join(namer(c) or show_name(c) for c in consts)
    if who:
        return ", ".join(show_name(c) for c in consts)
    return ", ".join(show_name(c) if " " in str(c) or "_" in str(c) or lexicon.is_plural_noun(str(c))
                     else f"the {c}" for c in consts)


_WHAT_IN = re.compile(r"^what (?:is (?:contained )?in|is inside|are the contents of) (.+?)\s*\?$", re.I)
_HOW_RELATED = re.compile(r"how is (.+?) related to (.+?)\s*\??\s*$", re.I)
# "Is the following statement true or false? S", after a framing phrase or not ("Based on the text, is …"),
# or "True or false: S"
_JUDGE = re.compile(r"^(?:(?:[^,?]{1,60},\s*)?(?:is|are) the following (?:statement|sentence|claim)s? (?:true|correct)"
                    r"\s*,?\s*(?:or\s+)?(?:false|incorrect)(?:\s*,?\s*or\s+(?:unknown|uncertain))?\s*\?"
                    r"|true\s+or\s+false\s*[:?])\s*(?P<statement>.+)$", re.I)


def _relation_names(question: str) -> tuple[str, str] | None:
    m = _HOW_RELATED.search(_last_question(question))
    return (m.group(1).strip(), m.group(2).strip()) if m else None


def _last_question(text: str) -> str:
    """The question asked last; a statement to judge comes whole, with every sentence after its
    opening ("Is the following … true or false? Rex is sour.", "True or false: If A, B.")."""
    sentences = split_sentences(text)
    judged = [i for i, s in enumerate(sentences) if _JUDGE.match(s + " x")]
    asked = [i for i, s in enumerate(sentences) if s.endswith("?")]
    if judged and (not asked or judged[-1] >= asked[-1]):
        return " ".join(sentences[judged[-1]:])
    if not asked:
        return sentences[-1] if sentences else ""
    return sentences[asked[-1]]


def _constant(words: str) -> str | None:
    ws = words.split()
    return state._np(ws) if ws else None


def _truth(statement_text: str, question: str) -> Goal | None:
    found = meanings(statement_text)
    if len(found) != 1:
        return None
    ((kind, clauses),) = found
    if kind != "fact":
        return None
    return Goal("truth", ", ".join(c.rstrip(".") for c in clauses), (), question)


def question_goal(text: str) -> Goal | None:
    """A question (or a statement to check) → Goal, or None when it is not understood."""
    question = surface.asked(_last_question(text))
    if not question:
        return None
    judged = _JUDGE.match(question)
    if judged:
        return _truth(judged.group("statement"), question)
    related = _relation_names(question)
    if related:
        a, b = (_constant(x) for x in related)
        if a is None or b is None:
            return None
        return Goal("relation", f"R_of({format_const(a)}, {format_const(b)})", (a, b), question)
    inside = _WHAT_IN.match(question)
    if inside:
        box = state.container(inside.group(1).split())
        return Goal("values", state.has(box, Var("X")), (), question, closed=True) if box is not None else None
    if not question.endswith("?"):
        return _truth(question, question)
    counted = _HOW_MANY.match(question)
    if counted:
        return _count(counted.group(1), question)
    universal = _EVERY.match(question)
    if universal:
        return _every(universal.group(1), universal.group(2), universal.group(3).split(), question)
    anything = _ANY.match(question)
    if anything:
        return _any(anything.group(1), anything.group(2).rstrip("?").split(), question)
    where = _WHERE.match(question) or _WHERE_VERB.match(question)
    if where:
        verb = lexicon.base_verb(where.group("verb")) if "verb" in where.groupdict() else None
        who = measures.subject(where.group("who"), readings)
        if who is None or "verb" in where.groupdict() and verb is None:
            return None
        return Goal("values", f"{verb + '_in' if verb else 'in'}({format_const(who)}, X)", (), question)
    aged = _HOW_OLD.match(question)
    if aged:
        who = measures.subject(aged.group(1), readings)
        return Goal("values", f"age({format_const(who)}, X)", (), question) if who is not None else None
    words = lexicon.tokens(question)
    if words is None:
        return None
    found: set[tuple[str, str]] = set()
    for tree in parse.readings(words):
        try:
            goal = _goal(words, tree)
        except Refused:
            return None         # as for statements: a reading logic would misstate refuses the question
        except Rejected:
            continue
        if goal is not None:
            found.add(goal)
    if len(found) != 1:
        return None
    kind, query = found.pop()
    if not surface.shouted_reading_ok(question, query, _known):
        return None
    return Goal(kind, query, (), question)


_HOW_MANY = re.compile(r"how many (\S.*\?)$", re.I)
_ANY = re.compile(r"(is|are|does|do) any (\S.*\?)$", re.I)
_HOW_OLD = re.compile(r"how old (?:is|are) (\S.*?)\s*\?$", re.I)
# "Where is Bob?" asks what Bob is in (`in(bob, X)`, as "Bob is in the kitchen." says it);
# "Where does Bob live?" what he lives in (`lives_in(bob, X)`)
_WHERE = re.compile(r"^where is (?P<who>\S.*?)\s*\?$", re.I)
_WHERE_VERB = re.compile(r"^where does (?P<who>\S.*?) (?P<verb>[a-z]+)\s*\?$", re.I)


def _any(copula: str, words: list[str], question: str) -> Goal | None:
    """"Is any cat black?" (or "Does any cat purr?") asks whether "Which cat is black?" has an
    answer: true when one is known. The noun ends where exactly one split gives a question the grammar reads."""
    verb = copula.lower()

    def which(i: int) -> str:         # "Does any cat purr?" is "Which cat purrs?"
        if verb in ("is", "are"):
            return f"Which {' '.join(words[:i])} {verb} {' '.join(words[i:])}?"
        said = lexicon.third_person(words[i]) if verb == "does" else words[i]
        return f"Which {' '.join([*words[:i], said, *words[i + 1:]])}?"

    found = {goal.query for i in range(1, len(words))
             if (goal := question_goal(which(i))) is not None and goal.kind == "values"}
    return Goal("truth", found.pop(), (), question) if len(found) == 1 else None


_EVERY = re.compile(r"^(is|are|does|do) (every|each|all|no) (\S.*?)\s*\?$", re.I)


def _every(verb: str, quant: str, words: list[str], question: str) -> Goal | None:
    """"Is every cat black?" asks whether the statement "Every cat is black." holds: its rule's body
    is the restriction, its head the literal each one must satisfy (`No cat …`: its strong negation).
    The noun phrase ends where exactly one split gives a statement the grammar reads to one rule of
    one variable."""
    verb = verb.lower()
    found: dict[tuple[str, str], str] = {}
    for i in range(1, len(words)):
        if verb in ("is", "are"):
            statement = f"{quant.capitalize()} {' '.join(words[:i])} {verb} {' '.join(words[i:])}."
        elif verb == "does":
            statement = f"{quant.capitalize()} {' '.join(words[:i])} {lexicon.third_person(words[i])} {' '.join(words[i + 1:])}"
        else:
            statement = f"{quant.capitalize()} {' '.join(words[:i])} {' '.join(words[i:])}"
        read = translate(statement.rstrip(". ") + ".")
        if read is None or len(read.clauses) != 1 or read.updates:
            continue
        from sym.core.logic.parser import parse_program  # lark: only for a universal question

        (rule,) = [c.clause for c in parse_program(read.clauses[0])]
        if not isinstance(rule, Rule) or rule.head is None or not rule.body \
                or not all(isinstance(b, Atom) for b in rule.body) \
                or len({a for lit in (rule.head, *rule.body) for a in getattr(lit, "args", ()) if isinstance(a, Var)}) != 1:
            continue
        nouns = [lexicon.noun_lemma(w) for w in words[:i]]
        unary = [b.pred for b in rule.body if isinstance(b, Atom) and len(b.args) == 1 and not b.neg]
        noun = next((n for n in reversed(nouns) if n in unary), "one")
        body = ", ".join(map(str, rule.body))
        found[(body, str(rule.head))] = noun.replace("_", " ")
    if len(found) != 1:
        return None
    ((body, head), noun), = found.items()
    shown = f"({body})" if "," in body else body
    return Goal("every", f"forall({shown}, {head})", (body, head, noun), question)


def _count(rest: str, question: str) -> Goal | None:
    """"How many cats are black?" is "Which cats are black?" counted: the number of its answers
    (aggregate_all), a count of what memory knows."""
    which = question_goal(f"Which {rest}")
    if which is None or which.kind != "values":
        return None
    return Goal("values", f"aggregate_all(count, ({which.query}), N)", (), question)


def _goal(words: list[Word], tree: Tree[Any]) -> tuple[str, str] | None:
    (node,) = _kids(tree)
    kind = node.data
    meaning = Meaning(words, Scope(rule=False))
    parts = _kids(node)
    toks = _toks(node)
    if kind == "yn_cop":
        copula = _toks(parts[0])[0].type
        terms, singular = meaning.subject(parts[1])
        if len(terms) > 1:
            meaning.distributive(parts[2])
        atoms = [a for t in terms for a in meaning.vp(parts[2], t, singular, copula=copula)]
        meaning.scope.check_constants()
        return "truth", ", ".join(map(str, atoms))
    if kind == "yn_do":
        singular = toks[0].type == "DOES"
        terms, number = meaning.subject(parts[0])
        if number != singular:
            raise Rejected("agreement")
        if len(terms) > 1:
            meaning.distributive(parts[1])
        atoms = [a for t in terms for a in meaning.vp(parts[1], t, singular, base=True)]
        meaning.scope.check_constants()
        if any(t.type == "NOT" for t in toks):
            if len(atoms) != 1 or atoms[0].neg:
                raise Rejected("'does X not A and B' does not say which part")
            atoms = [atoms[0].negate()]
        return "truth", ", ".join(map(str, atoms))
    meaning.scope.rule = True
    x = meaning.scope.fresh()
    if kind == "wh_subject":
        atoms = meaning.vp(parts[0], x, True)
        return _values(atoms)
    if kind == "wh_which":
        body, singular = gnoun(meaning, parts[0], x, singular=None)
        return _values(meaning.vp(parts[1], x, singular) + body)
    if kind in ("wh_object", "wh_adj_of", "wh_dir_of", "wh_relation_of"):
        subj_node = next(p for p in parts if p.data == "subject")
        terms, singular = meaning.subject(subj_node)
        if len(terms) != 1 or isinstance(terms[0], Var):
            raise Rejected("one subject")
        if kind == "wh_relation_of":
            copula = _toks(parts[0])[0].type
            if (copula == "IS") != singular:
                raise Rejected("agreement")
            rel = [meaning.content(p)[0] for p in parts[2:]]
            return _values([Atom(_pred([w.text for w in rel] + ["of"]), (terms[0], x))])
        verb_word = meaning.content(parts[-1])[0]
        if kind == "wh_object":
            if (toks[1].type == "DOES") != singular:
                raise Rejected("agreement")
            pred = lexicon.base_verb(verb_word.text) if verb_word.type == "W" else None
            if pred is None:
                raise Rejected("not a verb")
            link = [words[t.value].low for t in toks if t.type == "P"]
            return _values([Atom(_pred([pred, *link]), (terms[0], x))])
        copula = _toks(parts[0])[0].type
        if (copula == "IS") != singular:
            raise Rejected("agreement")
        link = toks[-2]
        word = verb_word.text
        if kind == "wh_dir_of":
            return _values([Atom(_pred([word, "of"]), (terms[0], x))])
        return _values([Atom(_pred([word, words[link.value].low]), (terms[0], x))])
    return None


def _values(atoms: list[Atom]) -> tuple[str, str]:
    """A values goal; "Who is not tall?" asks for what is known not to be (strong negation: in the
    open world what is not known to be tall is not thereby not tall)."""
    if not atoms:
        raise Rejected("values of nothing")
    return "values", ", ".join(map(str, atoms))


def relation_answer(facts: Iterable[object], goal: Goal, rank: Callable[[Atom], int] | None = None) -> str | None:
    """The answer sentence for a relation goal: an `R_of(X, Y)` among `facts` (atoms) whose
    arguments are the goal's; None when none holds. When several hold, the one with the
    highest `rank(atom)` wins (e.g. how many given facts its proof rests on: the relation
    that uses the whole story), the first among equals."""
    best, best_rank = None, 0   # best_rank is read only once best is set
    for fact in facts:
        if isinstance(fact, Atom) and not fact.neg and fact.pred.endswith("_of") and tuple(fact.args) == tuple(goal.args):
            score = rank(fact) if rank is not None else 0
            if best is None or score > best_rank:
                best, best_rank = fact, score
    return goal.render(best.pred) if best is not None else None
