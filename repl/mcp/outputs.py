"""Tool output schemas: the shape of each result type's `to_dict()` (what `--json` prints), one
schema per result class, and each tool's `outputSchema` made from the classes its command returns.

A result class is the one source: its `kind` names the branch, the schema below says what its
`to_dict()` holds, and tests call every tool and validate what comes back against its schema.
Branches leave room for more keys (a result may grow one), never for a missing or mistyped one.
Nothing here runs a command or imports the SDK.
"""

from __future__ import annotations

from typing import Any

from sym.repl.commands.proof import Abstained, CheckResult, MathAnswer, ProofResult
from sym.repl.commands.semantic import Extracted
from sym.repl.commands.swm import Asked, TellFailure, TellResult
from sym.repl.documents import DocsAnswered, Found
from sym.repl.results import Added, Answered, Failure, Forgotten, Inferred, Listing, Message, Proofs, Result

S, B, INT, N = {"type": "string"}, {"type": "boolean"}, {"type": "integer"}, {"type": "number"}
OBJ: dict[str, Any] = {"type": "object"}
MAYBE_S = {"type": ["string", "null"]}
MAYBE_B = {"type": ["boolean", "null"]}


def many(item: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": item}


def shape(required: str, **props: dict[str, Any]) -> dict[str, Any]:
    """An object with `props`; the names in `required` (space-separated) always present."""
    out: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        out["required"] = required.split()
    return out


ITEM = shape("id kind text source", id=S, kind=S, text=S, nl=MAYBE_S, source=S, created_at={"type": ["number", "string"]})
ANSWER = shape("query complete", query=S, complete=B, truth=S, variables=many(S), bindings=many(OBJ), count=INT)
TOLD = shape("sentence path outcome added", sentence=S, path=S, outcome=S, added=many(ITEM), removed=many(S),
             duplicates=INT, problem=S, warning=S, vote=OBJ)
VERIFICATION = shape("name status", name=S, status={"enum": ["proved", "refuted", "unknown", "inconsistent"]},
                     model=OBJ, counter_model=OBJ, reason=S)
VOTE = shape("samples", samples=INT, allowed=INT, accepted=INT, tally=OBJ, winner=MAYBE_S)
PROOF_NODE = shape("literal status", literal=S, status=S, rule=S, step=INT, premises=many(OBJ))
HIT = shape("kind id text score", kind=S, id=S, text=S, score=N, source=MAYBE_S, start=INT, end=INT)
PASSAGE = shape("text", cite=S, heading=S, text=S, score=N, id=S, snippet=S)
ERROR = {"error": S, "hint": S}

# what each result class's to_dict() holds
SHAPES: dict[type[Result], dict[str, Any]] = {
    Added: shape("added duplicates", added=many(ITEM), duplicates=INT, notes=many(S), warnings=many(S), source=S,
                 rows=INT, relation=S, loaded=INT,
                 answers=many(ANSWER)),
    Answered: ANSWER,
    Inferred: shape("steps derived complete violations", steps=INT, derived=INT, complete=B,
                    violations=many(shape("constraint facts text", constraint=S, facts=many(S), text=S))),
    Proofs: shape("proofs rules", proofs=many(PROOF_NODE), rules={"type": "object", "additionalProperties": S},
                  passages=OBJ),
    Listing: shape("items", items=many(ITEM), derived=many(S), derived_count=INT, offset=INT),
    Forgotten: shape("removed", removed=many(ITEM)),
    Message: shape("message", message=S),
    Found: shape("query hits", query=S, embedded=many(INT), hits=many(HIT)),
    TellResult: shape("sentences llm_calls", sentences=many(TOLD), llm_calls=INT, warnings=many(S)),
    TellFailure: shape("error sentences llm_calls", **ERROR, sentences=many(TOLD), llm_calls=INT),
    Asked: shape("question goal kind answer verified steps rounds llm_calls mode", question=S, goal=S, kind=S,
                 answer=MAYBE_S, verified=B, steps=many(S), rounds=INT, llm_calls=INT, mode=S, values=many(OBJ),
                 settle=S, derivations=OBJ, clash=many(OBJ), note=S),
    DocsAnswered: shape("from question verified passages", **{"from": {"const": "documents"}}, question=S,
                        verified=B, passages=many(PASSAGE), answer=S, cited=many(S), model=MAYBE_S,
                        unknown_citations=many(S), no_answer=S, check=OBJ, memory=OBJ),
    ProofResult: shape("source attempts consistent verifications", source=S, attempts=INT, consistent=MAYBE_B,
                       verifications=many(VERIFICATION), core=many(S), optimization=OBJ, vote=VOTE),
    Abstained: shape("source verdict abstained", source=S, verdict={"const": "unknown"}, abstained={"const": True},
                     vote=VOTE, problem=S, fallback=shape("answer verified", answer=S, verified={"const": False})),
    CheckResult: shape("consistent checked core method z3_items", consistent=MAYBE_B, checked=INT, core=many(S),
                       method=S, z3_items=INT, minimal=B, clash=S, reason=S),
    MathAnswer: shape("operation input result latex", operation=S, input=S, result=S, latex=S),
    Extracted: shape("predicates added known chunks llm_calls", predicates=many(S), added=many(ITEM), known=INT,
                     exact_duplicates=INT, merged=many(OBJ), rejected=many(OBJ), fallback_chunks=many(INT),
                     unread_chunks=many(OBJ), chunks=INT, llm_calls=INT, notes=many(S), source=S),
    Failure: shape("error", **ERROR),
}

# what each tool's command returns (a failure is always possible)
RETURNS: dict[str, tuple[type[Result], ...]] = {
    "tell": (TellResult, TellFailure),
    "ask": (Asked, DocsAnswered),
    "query": (Answered,),
    "why": (Proofs,),
    "prove": (ProofResult, Abstained),
    "check": (CheckResult,),
    "infer": (Inferred,),
    "math": (MathAnswer,),
    "search": (Found,),
    "listing": (Listing,),
    "extract": (Extracted,),
    "fact": (Added,),
    "rule": (Added,),
    "forget": (Forgotten, Message),
    "consult": (Added,),
    "load": (Message,),
}

# every structured result: where it came from, whether it succeeded, its result kind; a call with an
# old argument name also says what to call it now
ENVELOPE = {"input": S, "command": S, "ok": B, "kind": S, "deprecated": many(S)}


def branch(cls: type[Result]) -> dict[str, Any]:
    """The schema of a structured result of `cls`: its to_dict() under the envelope, `ok` as the
    class has it, and its `kind` where to_dict() does not put a kind of its own."""
    body = SHAPES[cls]
    props = dict(body["properties"])
    failed = issubclass(cls, Failure)
    props["ok"] = {"const": not failed}
    if "kind" not in body["properties"]:
        props["kind"] = {"const": cls.kind}
    return {**body, "properties": props}


def output_schema(tool: str) -> dict[str, Any]:
    """The `outputSchema` of a tool: the envelope, and one branch per result its command returns."""
    classes = (*RETURNS[tool], Failure)
    return {"type": "object", "properties": ENVELOPE, "required": ["ok", "kind"],
            "anyOf": [branch(c) for c in dict.fromkeys(classes)]}
