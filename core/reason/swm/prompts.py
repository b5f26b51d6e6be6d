"""What the SWM reasoner asks the model, and the JSON shapes it expects back.

Every prompt is built here from plain strings (our own wording of the Symbolic Working
Memory method: fact/rule initialisation against a schema, question → goal, rule
implementation for one instance). Extraction and goals are written for small models: the
model picks from lists (checked in choice.py), with worked examples in invented words.
Nothing a model returns is evaluated.
"""

from __future__ import annotations

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
                    template = template.replace("{%d}" % i, letter)
                entry += f": {template}"
            out.append(entry)
    return " | ".join(out + ["other"])


def extraction_messages(sentence: str, predicates: str, things: list[str]) -> list[dict]:
    """One sentence to classify. The system prompt is the same for every call (a server can reuse it)."""
    user = f"Predicates: {predicates}\nThings: {', '.join(things)}\nSentence: {sentence}"
    return [{"role": "system", "content": EXTRACTION_SYSTEM}, {"role": "user", "content": user}]


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


def restate_messages(sentences: list[str], relations: list[str], properties: list[str]) -> list[dict]:
    """Sentences about named things, to be restated in the controlled language (read back by the grammar)."""
    lines = [f"Relations: {', '.join(relations) or '(any)'}"]
    if properties:
        lines.append(f"Properties: {', '.join(properties)}")
    lines.append(f"Story: {' '.join(sentences)}")
    return [{"role": "system", "content": RESTATE_SYSTEM}, {"role": "user", "content": "\n".join(lines)}]


def restate_repair(previous: list[dict], reply: str, problem: str) -> list[dict]:
    """A restatement none of whose lines could be read, sent back with the reason."""
    return [*previous, {"role": "assistant", "content": reply},
            {"role": "user", "content": f"That cannot be used: {problem}\n"
                                        "Write only the facts, one per line, like: Tarn is the mib of Zell."}]


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


def goal_messages(question: str, predicates: str, things: list[str]) -> list[dict]:
    user = f"Predicates: {predicates}\nThings: {', '.join(things)}\nQuestion: {question}"
    return [{"role": "system", "content": GOAL_SYSTEM}, {"role": "user", "content": user}]


def repair_messages(previous: list[dict], reply: str, problem: str) -> list[dict]:
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


def implementation_messages(rule_nl: str, rule_logic: str, premises: list[str], expected: str) -> list[dict]:
    listed = "\n".join(f"- {p}" for p in premises)
    system = f"""You apply one rule to given facts, the way a careful logician would.
{LANGUAGE}
Say whether the rule applies to exactly these facts and, if it does, which new facts follow
(usually one, shaped like the rule's conclusion). Answer with JSON only:
{{"applies": true, "facts": ["{expected}"]}}"""
    user = f"Rule: {rule_nl or rule_logic}\nRule in logic: {rule_logic}\nFacts:\n{listed}"
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def fallback_messages(question: str, memory_lines: list[str]) -> list[dict]:
    listed = "\n".join(memory_lines) or "(nothing relevant)"
    system = ("Answer the question in one short sentence using the facts and rules given and "
              "common sense. If they do not settle it, say what is most likely and why.")
    return [{"role": "system", "content": system},
            {"role": "user", "content": f"Known:\n{listed}\n\nQuestion: {question}"}]


def chat_messages(text: str, memory_lines: list[str], history: list[dict]) -> list[dict]:
    listed = "\n".join(memory_lines) or "(the working memory has nothing relevant)"
    system = ("You are the assistant inside sym, a reasoning shell. Items from the user's working "
              "memory that may be relevant are listed with their ids in brackets. When you use one, "
              "cite its id like [f1a2b3c4d5e6]. Say so when the memory does not settle a point.\n\n"
              f"Working memory:\n{listed}")
    return [{"role": "system", "content": system}, *history[-8:], {"role": "user", "content": text}]


BASELINE_SYSTEM = """Read the text and answer the question. Think step by step in a few short
sentences, then give the final answer on the last line, starting with "Answer:"."""


def baseline_messages(context: str, question: str, hint: str = "") -> list[dict]:
    """The model alone: one chain-of-thought call over the whole text (the bench's baseline)."""
    user = f"Text: {context}\n\nQuestion: {question}" + (f"\n{hint}" if hint else "")
    return [{"role": "system", "content": BASELINE_SYSTEM}, {"role": "user", "content": user}]


def final_answer(text: str) -> str:
    """What follows the last "Answer:" in a chain-of-thought reply (else its last non-empty line)."""
    import re

    found = re.findall(r"answer\s*[:：]\s*(.+)", text, flags=re.I)
    if found:
        return found[-1].strip().strip("*").strip()
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""
