"""What the SWM reasoner asks the model, and the JSON shapes it expects back.

Every prompt is built here from plain strings (our own wording of the Symbolic Working
Memory method: fact/rule initialisation against a schema, question → goal, rule
implementation for one instance). Replies are validated by the pydantic models below;
field values are then parsed by the logic grammar, never evaluated.
"""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator

LANGUAGE = """Logic syntax (Prolog-like Datalog):
- fact: predicate(arg, arg).   e.g. father_of(joshua, don).  big(bob).
- constants are lower_case or 'quoted words'; variables start Upper-case (X, Y, Person).
- rule: head(X) :- body1(X), body2(X, Y).   all head variables appear in the body.
- strong negation: ~green(gary).  (a statement that something is NOT the case)
- "C is the R of A" is written r_of(c, a), e.g. "Jay is the brother of John" → brother_of(jay, john).
- predicate names: lower_snake_case; adjectives as one-place predicates (big(bob)); verbs in
  third person singular with subject first (eats(cat, mouse))."""


def _schema_lines(schema: list[str]) -> str:
    return "\n".join(f"- {line}" for line in schema) if schema else "- (empty: choose clear names)"


class Extracted(BaseModel):
    sentence: int = Field(description="the number of the sentence this clause comes from")
    kind: str = Field(description="fact, rule or soft")
    logic: str = Field(description="one clause in the logic syntax, ending with a period")

    @field_validator("kind", mode="before")
    @classmethod
    def _kind(cls, v: object) -> str:
        text = str(v).strip().lower()
        return {"facts": "fact", "rules": "rule", "soft rule": "soft", "soft_rule": "soft"}.get(text, text)


class Extraction(BaseModel):
    items: list[Extracted]


def extraction_messages(sentences: list[str], schema: list[str]) -> list[dict]:
    numbered = "\n".join(f"{n}. {s}" for n, s in enumerate(sentences, start=1))
    system = f"""You turn English statements into logic clauses for a symbolic reasoner.
{LANGUAGE}
Reuse the predicates already in the schema whenever they mean the same thing:
{_schema_lines(schema)}
For each sentence give one or more clauses. kind is "fact" for a statement about specific
things, "rule" for a general statement that the logic captures exactly, and "soft" for a
general statement that needs judgement or world knowledge (write its premises and
conclusion as a rule anyway; it will be applied case by case). Answer with JSON only:
{{"items": [{{"sentence": 1, "kind": "fact", "logic": "big(bob)."}}]}}"""
    return [{"role": "system", "content": system}, {"role": "user", "content": numbered}]


def repair_messages(previous: list[dict], reply: str, problems: list[str]) -> list[dict]:
    listed = "\n".join(f"- {p}" for p in problems)
    return [*previous, {"role": "assistant", "content": reply},
            {"role": "user", "content": f"Some clauses could not be used:\n{listed}\n"
                                        "Send the whole JSON again with those clauses corrected."}]


class GoalModel(BaseModel):
    kind: str = Field(description="truth, values or relation")
    query: str = Field(description="the goal in the logic syntax, without ?- ")

    @field_validator("kind", mode="before")
    @classmethod
    def _kind(cls, v: object) -> str:
        return str(v).strip().lower()


def goal_messages(question: str, schema: list[str]) -> list[dict]:
    system = f"""You turn a question into a goal for a symbolic reasoner.
{LANGUAGE}
Known predicates:
{_schema_lines(schema)}
kind "truth": a yes/no statement, query is one ground atom, e.g. furry(charlie).
kind "values": asks for things, query has variables, e.g. contains(box_0, X).
kind "relation": asks how two things are related, query is rel(a, b) with the two constants.
Answer with JSON only: {{"kind": "truth", "query": "furry(charlie)"}}"""
    return [{"role": "system", "content": system}, {"role": "user", "content": question}]


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
