"""Prompts for /prove QUESTION: the DSL explained with one worked example, the question and
the relevant working memory (errors go back through LLM.json_with_repair)."""

from __future__ import annotations

from typing import Any

SYSTEM = """You translate a question into a Proof-of-Thought program: one JSON object checked by the Z3 theorem prover.
Keys: sorts, functions, constants, variables, knowledge_base, rules, verifications, optimization, actions.
- sorts: {"name", "type"} with type DeclareSort, EnumSort (with "values"), IntSort, RealSort or BoolSort.
- functions: {"name", "domain": [sort names], "range": sort name}; use BoolSort range for predicates.
- constants: {"group": {"sort": S, "members": [names]}}.
- variables: {"name", "sort"}; a variable is only used inside ForAll([x], ...), Exists([x], ...) or Sum([x], ...).
- knowledge_base: facts as expression strings, or {"assertion": expr, "value": false} for a fact that does not hold.
- rules: {"name", "forall": [{"name", "sort"}], "implies": {"antecedent": expr, "consequent": expr}} or with "constraint".
- verifications: {"name", "constraint": expr}, optionally with "forall" or "exists" variable lists, or "implies".
  A verification is the claim the question asks about: it is proved if the knowledge base entails it,
  refuted if the knowledge base entails its negation, unknown otherwise.
Expressions: And, Or, Not, Implies, If, Distinct, ForAll, Exists, Sum, + - * / %, == != < <= > >=,
function application f(a, b), numbers, True, False. Names are plain identifiers. Answer with the JSON only."""

EXAMPLE_QUESTION = "Could a high jumper who cleared 2.45 m jump over an average giraffe?"
EXAMPLE = """{"sorts": [{"name": "Person", "type": "DeclareSort"}, {"name": "Animal", "type": "DeclareSort"}],
 "functions": [{"name": "jump_height", "domain": ["Person"], "range": "RealSort"},
               {"name": "height", "domain": ["Animal"], "range": "RealSort"}],
 "constants": {"persons": {"sort": "Person", "members": ["jumper"]},
               "animals": {"sort": "Animal", "members": ["giraffe"]}},
 "knowledge_base": ["jump_height(jumper) == 2.45", "height(giraffe) == 5.5"],
 "verifications": [{"name": "jumps over the giraffe", "constraint": "jump_height(jumper) > height(giraffe)"}],
 "actions": ["verify_conditions"]}"""


def first_messages(question: str, memory: list[str]) -> list[dict[str, Any]]:
    known = "\n".join(memory)
    user = f"Question: {question}"
    if known:
        user += f"\n\nKnown facts and rules (Prolog notation; use what is relevant):\n{known}"
    return [{"role": "system", "content": SYSTEM},
            {"role": "user", "content": f"Question: {EXAMPLE_QUESTION}"},
            {"role": "assistant", "content": EXAMPLE},
            {"role": "user", "content": user}]

