"""What the SWM reasoner asks the model, and the JSON shapes it expects back.

Every prompt is built here from plain strings (our own wording of the Symbolic Working
Memory method: fact/rule initialisation against a schema, question → goal, rule
implementation for one instance). Extraction and goals are written for small models: the
model picks from lists (checked in choice.py), with worked examples in invented words.
Nothing a model returns is evaluated.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, Field, field_validator

LANGUAGE = """Logic syntax (Prolog-like Datalog):
- fact: predicate(arg, arg).   constants lower_case or 'quoted words'; variables start Upper-case.
- rule: head(X) :- body1(X), body2(X, Y).   strong negation: ~pred(x).
- "C is the R of A" is written r_of(c, a)."""

# The worked examples use invented words only, so nothing in them can leak into an answer as
# if it were knowledge; sym rejects a proposed predicate that copies one of these words.
EXAMPLE_WORDS = frozenset("""dax wug mib mib_of wug_of dax_of plon quiv tarn zell fep blork blorks blorked
glim glimmy""".split())

EXTRACTION_SYSTEM = """You read one English sentence and choose the facts and rules it states.
You do not write logic. You choose:
- "predicate": one name from the Predicates list (mind the order of its arguments A, B),
  or "other" with "new_predicate" (a short lower_snake_case name) only when none fits;
- "args": from the Things list only; X, Y, Z stand for "anything" in general statements;
- "kind": "fact" (about named things), "rule" (always true in general), "soft" (usually true,
  needs judgement); a rule or soft statement puts its conditions in "if";
- "negated": true when the sentence says it is NOT so.
Answer with JSON only.

Predicates: dax(A): A is dax | mib_of(A, B): A is the mib of B | other
Things: plon, quiv, X, Y, Z
Sentence: Quiv is the mib of Plon, and Plon is not dax.
{"statements": [{"kind": "fact", "predicate": "mib_of", "args": ["quiv", "plon"], "negated": false},
 {"kind": "fact", "predicate": "dax", "args": ["plon"], "negated": true}]}

Predicates: dax(A): A is dax | wug(A): A is a wug | other
Things: X, Y, Z
Sentence: Every wug is dax, but wugs usually glim.
{"statements": [{"kind": "rule", "predicate": "dax", "args": ["X"], "negated": false,
  "if": [{"predicate": "wug", "args": ["X"], "negated": false}]},
 {"kind": "soft", "predicate": "other", "new_predicate": "glims", "args": ["X"], "negated": false,
  "if": [{"predicate": "wug", "args": ["X"], "negated": false}]}]}

Predicates: mib_of(A, B): A is the mib of B | other
Things: zell, tarn, fep, X, Y, Z
Sentence: Zell took her mib Tarn to the fep.
{"statements": [{"kind": "fact", "predicate": "mib_of", "args": ["tarn", "zell"], "negated": false}]}"""


def predicate_lines(predicates: dict[str, tuple[int, ...]], templates: dict[str, str]) -> str:
    """`name(A, B): template` entries joined for a prompt (the templates' {0} {1} as A, B)."""
    out = []
    for name in sorted(predicates):
        for arity in predicates[name]:
            letters = "ABCDEFG"[:arity]
            entry = f"{name}({', '.join(letters)})"
            template = templates.get(f"{name}/{arity}", "")
            if not template and name.endswith("_of") and arity == 2:
                template = "{0} is the " + name.removesuffix("_of").replace("_", " ") + " of {1}"
            elif not template and arity == 1:
                template = "{0} is " + name.replace("_", " ")
            if template:
                for i, letter in enumerate(letters):
                    template = template.replace(f"{{{i}}}", letter)
                entry += f": {template}"
            out.append(entry)
    return " | ".join(out + ["other"])


def extraction_messages(sentence: str, predicates: str, things: list[str]) -> list[dict[str, Any]]:
    """One sentence to classify. The system prompt is the same for every call (a server can reuse it)."""
    user = f"Predicates: {predicates}\nThings: {', '.join(things)}\nSentence: {sentence}"
    return [{"role": "system", "content": EXTRACTION_SYSTEM}, {"role": "user", "content": user}]


# The kinship example uses real words: a converse is known only for words the model knows, and a
# yes/no answer cannot carry an example's words into memory.
VERIFY_SYSTEM = """You check what a reasoner read from an English sentence. The reading says it again
in simple English; X, Y and Z stand for anything. Answer "yes" when the sentence says or clearly
implies what the reading says: the reading may leave part of the sentence out, and may give a
relation from the other side ("her son Tom" implies "Ann is the mother of Tom"), but it must not
add, change or reverse anything, and it must keep who does what to whom. Otherwise answer "no".
Answer with JSON only.

Examples:
Sentence: Every wug is a dax that glims.
Reading: If X is a wug then X is a dax. If X is a wug then X glims.
{"answer": "yes"}
Sentence: Every wug is a dax that glims.
Reading: Wugs like glim.
{"answer": "no"}
Sentence: Ann took her son Tom to the fair.
Reading: Tom is the son of Ann. Ann is the mother of Tom.
{"answer": "yes"}
Sentence: Ann took her son Tom to the fair.
Reading: Ann is the son of Tom. Tom is tall.
{"answer": "no"}"""


def verify_messages(sentence: str, reading: str) -> list[dict[str, Any]]:
    """One independent yes/no question: does the sentence say (or clearly imply) what sym's
    rendering of the reading says? The sentence may carry the one before it, as context."""
    user = f"Sentence: {sentence}\nReading: {reading}\nDoes the sentence say or clearly imply what the reading says?"
    return [{"role": "system", "content": VERIFY_SYSTEM}, {"role": "user", "content": user}]


RESTATE_SYSTEM = """You restate a story as simple facts for a reasoner.
Write one fact per line, each exactly in the form "<Name> is the <relation> of <Name>." or
"<Name> is <property>.", using only the relations and properties listed and only names from
the story. Write every fact the story states or clearly implies, with the names in the right
order ("A is the son of B" means A is B's son), and each relation between two people in both
directions. Write nothing else.

Example (invented words):
Relations: mib, dax, wug
Properties: tall
Story: Zell took her mib Tarn to the fep. Quiv, Tarn's dax, was tall.
Tarn is the mib of Zell.
Zell is the wug of Tarn.
Quiv is the dax of Tarn.
Tarn is the wug of Quiv.
Quiv is tall."""


def restate_messages(sentences: list[str], relations: list[str], properties: list[str]) -> list[dict[str, Any]]:
    """Sentences about named things, to be restated in the controlled language (read back by the grammar)."""
    lines = [f"Relations: {', '.join(relations) or '(any)'}"]
    if properties:
        lines.append(f"Properties: {', '.join(properties)}")
    lines.append(f"Story: {' '.join(sentences)}")
    return [{"role": "system", "content": RESTATE_SYSTEM}, {"role": "user", "content": "\n".join(lines)}]


def restate_repair(previous: list[dict[str, Any]], reply: str, problem: str) -> list[dict[str, Any]]:
    """A restatement none of whose lines could be read, sent back with the reason."""
    return [*previous, {"role": "assistant", "content": reply},
            {"role": "user", "content": f"That cannot be used: {problem}\n"
                                        "Write only the facts, one per line, like: Tarn is the mib of Zell."}]


_PAIR_STORY = ("Zell took her mib Tarn to the fep, and Tarn thanked his wug. Quiv, Tarn's dax, was proud of "
               "her plon Tarn and met Fep later.")
_PAIR_PAIRS = (("Tarn", "Zell", "mib"), ("Zell", "Tarn", "wug"), ("Quiv", "Tarn", "dax"), ("Tarn", "Quiv", "plon"),
               ("Quiv", "Fep", "none"), ("Fep", "Quiv", "none"))


def _pair_system(possessive: bool) -> str:
    """The instructions and one worked example (invented words) for pairs.py's questions."""
    if possessive:
        form, unit = "\"A is B's ___\" (what A is to B)", "relation word (from the Words list when one fits)"
        keys = [f"{a} is {b}'s ___" for a, b, _ in _PAIR_PAIRS]
        answers = [w for _, _, w in _PAIR_PAIRS]
        menu = "Words: mib, wug, dax, none"
    else:
        form, unit = "\"A ___ B\"", "phrase from the Phrases list"
        keys = [f"{a} ___ {b}" for a, b, _ in _PAIR_PAIRS]
        answers = [w if w == "none" else f"is the {w} of" for _, _, w in _PAIR_PAIRS]
        menu = "Phrases: is the mib of | is the wug of | is the dax of | is the plon of | none"
    reply = ", ".join(f'"{i}. {k}": "{a}"' for i, (k, a) in enumerate(zip(keys, answers), 1))
    questions = "\n".join(f"{i}. {k}" for i, k in enumerate(keys, 1))
    return (f"You read a short story and fill in blanks about the people or things named in it.\n"
            f"Each question is {form}. Choose the one {unit} that makes it true by the story: what\n"
            f"the story says, or what its words clearly imply. Mind the order of the two names. Choose\n"
            f"\"none\" when the story does not tell how the two are related. Answer with JSON only: each\n"
            f"question as the key, your choice as the value.\n\n"
            f"Example (invented words):\n{menu}\nStory: {_PAIR_STORY}\nQuestions:\n{questions}\n{{{reply}}}")


def pair_messages(story: str, choices: list[str], keys: list[str], possessive: bool) -> list[dict[str, Any]]:
    """Blanks between named things to fill from a list of relation words or phrases (pairs.py)."""
    menu = f"Words: {', '.join(choices)}" if possessive else f"Phrases: {' | '.join(choices)}"
    lines = [menu, f"Story: {story}", "Questions:"] + [f"{i}. {key}" for i, key in enumerate(keys, 1)]
    return [{"role": "system", "content": _pair_system(possessive)}, {"role": "user", "content": "\n".join(lines)}]


WHICH_SYSTEM = """You read a short story and say which statements it makes about the people or things
named in it. Each question names two of them and a relation word, and offers the two ways round
and "neither". Choose the statement the story says or clearly implies, or "neither" when it says
neither. Mind who is whose: "her mib Tarn" means Tarn is her mib. Answer with JSON only: each
question as the key, the chosen statement as the value.

Example (invented words):
Story: Zell took her mib Tarn to the fep. Quiv, Tarn's dax, met Fep later.
Questions:
1. Zell, Tarn, mib: Tarn is Zell's mib | Zell is Tarn's mib | neither
2. Tarn, Quiv, dax: Quiv is Tarn's dax | Tarn is Quiv's dax | neither
3. Quiv, Fep, dax: Fep is Quiv's dax | Quiv is Fep's dax | neither
{"1. Zell, Tarn, mib": "Tarn is Zell's mib", "2. Tarn, Quiv, dax": "Quiv is Tarn's dax",
 "3. Quiv, Fep, dax": "neither"}"""


def which_messages(story: str, lines: list[str]) -> list[dict[str, Any]]:
    """Which way round the story states each relation (pairs.two_steps, step 1)."""
    body = "\n".join([f"Story: {story}", "Questions:", *[f"{i}. {line}" for i, line in enumerate(lines, 1)]])
    return [{"role": "system", "content": WHICH_SYSTEM}, {"role": "user", "content": body}]


CONVERSE_SYSTEM = """Each question states how one person is related to another and asks for the same
relation seen from the other person's side: what is the second person to the first? That is most
often a different word (a teacher's student, a host's guest); pick the word that fits the second
person, man or woman, as the story and their name show. Answer "none" when there is no such word.
Answer with JSON only: each question as the key, one word as the value.

Example:
Story: Tarn studies with Zell. Quiv hired Fep. Plon stayed at Dax's house.
Questions:
1. Tarn is Zell's student, so Zell is Tarn's ___
2. Fep is Quiv's employee, so Quiv is Fep's ___
3. Plon is Dax's guest, so Dax is Plon's ___
{"1. Tarn is Zell's student, so Zell is Tarn's ___": "teacher",
 "2. Fep is Quiv's employee, so Quiv is Fep's ___": "employer",
 "3. Plon is Dax's guest, so Dax is Plon's ___": "host"}"""


def converse_messages(story: str, keys: list[str]) -> list[dict[str, Any]]:
    """The other direction of each stated relation (pairs.two_steps, step 2)."""
    body = "\n".join([f"Story: {story}", "Questions:", *[f"{i}. {k}" for i, k in enumerate(keys, 1)]])
    return [{"role": "system", "content": CONVERSE_SYSTEM}, {"role": "user", "content": body}]


GOAL_SYSTEM = """You read a question and choose the goal a reasoner must check. You do not write logic:
- "kind": "truth" (a yes/no question or a statement to judge), "values" (asks which things:
  put X where the answer goes), "relation" (how two things are related: args are the two);
- "predicate": one name from the Predicates list, or "other" with "new_predicate";
- "args": from the Things list only; "negated": true when the question asks whether something is NOT so.
Answer with JSON only.

Predicates: dax(A): A is dax | mib_of(A, B): A is the mib of B | other
Things: plon, quiv, X
Question: Is Plon dax?
{"kind": "truth", "predicate": "dax", "args": ["plon"], "negated": false}
Question: Who is the mib of Quiv?
{"kind": "values", "predicate": "mib_of", "args": ["X", "quiv"], "negated": false}
Question: How is Plon related to Quiv?
{"kind": "relation", "predicate": "other", "args": ["plon", "quiv"], "negated": false}"""


def goal_messages(question: str, predicates: str, things: list[str]) -> list[dict[str, Any]]:
    user = f"Predicates: {predicates}\nThings: {', '.join(things)}\nQuestion: {question}"
    return [{"role": "system", "content": GOAL_SYSTEM}, {"role": "user", "content": user}]


def repair_messages(previous: list[dict[str, Any]], reply: str, problem: str) -> list[dict[str, Any]]:
    """The rejected reply and the checker's exact words, for another try."""
    return [*previous, {"role": "assistant", "content": reply},
            {"role": "user", "content": f"That reply cannot be used: {problem}\n"
                                        "Answer again with the corrected JSON only."}]


class Implementation(BaseModel):
    applies: bool = Field(description="whether the rule applies to these facts")
    facts: list[str] = Field(default_factory=list, description="the new facts it yields, in the logic syntax")

    @field_validator("applies", mode="before")
    @classmethod
    def _applies(cls, v: object) -> object:
        if isinstance(v, str):
            return v.strip().lower() in ("true", "yes", "1")
        return v


def implementation_messages(rule_nl: str, rule_logic: str, premises: list[str], expected: str) -> list[dict[str, Any]]:
    listed = "\n".join(f"- {p}" for p in premises)
    system = f"""You apply one rule to given facts, the way a careful logician would.
{LANGUAGE}
Say whether the rule applies to exactly these facts and, if it does, which new facts follow
(usually one, shaped like the rule's conclusion). Answer with JSON only:
{{"applies": true, "facts": ["{expected}"]}}"""
    user = f"Rule: {rule_nl or rule_logic}\nRule in logic: {rule_logic}\nFacts:\n{listed}"
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def fallback_messages(question: str, memory_lines: list[str]) -> list[dict[str, Any]]:
    listed = "\n".join(memory_lines) or "(nothing relevant)"
    system = ("Answer the question in one short sentence using the facts and rules given and "
              "common sense. If they do not settle it, say what is most likely and why.")
    return [{"role": "system", "content": system},
            {"role": "user", "content": f"Known:\n{listed}\n\nQuestion: {question}"}]


def chat_messages(text: str, memory_lines: list[str], history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    listed = "\n".join(memory_lines) or "(the working memory has nothing relevant)"
    system = ("You are the assistant inside sym, a reasoning shell. Items from the user's working "
              "memory that may be relevant are listed with their ids in brackets. When you use one, "
              "cite its id like [f1a2b3c4d5e6]. Say so when the memory does not settle a point.\n\n"
              f"Working memory:\n{listed}")
    return [{"role": "system", "content": system}, *history[-8:], {"role": "user", "content": text}]


BASELINE_SYSTEM = """Read the text and answer the question. Think step by step in a few short
sentences, then give the final answer on the last line, starting with "Answer:"."""


def baseline_messages(context: str, question: str, hint: str = "") -> list[dict[str, Any]]:
    """The model alone: one chain-of-thought call over the whole text (the bench's baseline)."""
    user = f"Text: {context}\n\nQuestion: {question}" + (f"\n{hint}" if hint else "")
    return [{"role": "system", "content": BASELINE_SYSTEM}, {"role": "user", "content": user}]


def final_answer(text: str) -> str:
    """What follows the last "Answer:" in a chain-of-thought reply (else its last non-empty line)."""
    found: list[str] = re.findall(r"answer\s*[:：]\s*(.+)", text, flags=re.I)
    if found:
        return found[-1].strip().strip("*").strip()
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""
