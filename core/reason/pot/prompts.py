"""Prompts for /prove QUESTION (JSON or SMT-LIB): the language explained with one worked example, the question and
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


SYSTEM_SMT2 = """You translate a question into an SMT-LIB 2 script checked by the Z3 theorem prover.
- Declare sorts: (declare-sort Person 0), or (declare-datatypes () ((Color red green))) for a fixed set of values.
- Declare constants and functions: (declare-const jumper Person), (declare-fun height (Animal) Real); predicates
  have range Bool.
- State each known fact or rule as (assert (! FORMULA :named short_name)); quantifiers are
  (forall ((x Person)) FORMULA) and (exists ((x Person)) FORMULA).
- For each claim the question asks about: (define-fun claim_name () Bool FORMULA) then (check-sat-assuming (claim_name)).
  A claim is proved if the assertions entail it, refuted if they entail its negation, unknown otherwise.
  State the claim itself, never its negation.
Use only names you declared. Answer with the script only."""

EXAMPLE_SMT2 = """(declare-sort Person 0)
(declare-sort Animal 0)
(declare-const jumper Person)
(declare-const giraffe Animal)
(declare-fun jump_height (Person) Real)
(declare-fun height (Animal) Real)
(assert (! (= (jump_height jumper) 2.45) :named record_jump))
(assert (! (= (height giraffe) 5.5) :named giraffe_height))
(define-fun jumps_over_the_giraffe () Bool (> (jump_height jumper) (height giraffe)))
(check-sat-assuming (jumps_over_the_giraffe))"""


def first_messages(question: str, memory: list[str], fmt: str = "json") -> list[dict[str, Any]]:
    known = "\n".join(memory)
    user = f"Question: {question}"
    if known:
        user += f"\n\nKnown facts and rules (Prolog notation; use what is relevant):\n{known}"
    system, example = (SYSTEM, EXAMPLE) if fmt == "json" else (SYSTEM_SMT2, EXAMPLE_SMT2)
    return [{"role": "system", "content": system},
            {"role": "user", "content": f"Question: {EXAMPLE_QUESTION}"},
            {"role": "assistant", "content": example},
            {"role": "user", "content": user}]

