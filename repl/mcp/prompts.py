"""The prompts `sym mcp` offers (hosts show them as slash commands): the common tasks, each a
message to the host's model naming the sym tools that do it and the arguments to give them.

A prompt only writes text; the model then calls the tools, which run and record as any call does.
Nothing here runs a command or imports the SDK.
"""

from __future__ import annotations

from dataclasses import dataclass

from sym.core.errors import UserError


@dataclass(frozen=True)
class Argument:
    name: str
    description: str
    required: bool = True


@dataclass(frozen=True)
class Prompt:
    name: str
    description: str
    arguments: tuple[Argument, ...]
    template: str                    # str.format with the arguments (missing optional ones: "")

    def text(self, given: dict[str, str] | None) -> str:
        given = dict(given or {})
        for arg in self.arguments:
            if arg.required and not str(given.get(arg.name) or "").strip():
                raise UserError(f"prompt {self.name} needs {arg.name!r}", hint=arg.description)
        unknown = [k for k in given if k not in {a.name for a in self.arguments}]
        if unknown:
            raise UserError(f"prompt {self.name} takes no argument {unknown[0]!r}",
                            hint="takes: " + (", ".join(a.name for a in self.arguments) or "no arguments"))
        values = {a.name: str(given.get(a.name) or "").strip() for a in self.arguments}
        return self.template.format(**values).strip()


PROMPTS: tuple[Prompt, ...] = (
    Prompt("load-and-ask", "Load notes into sym's memory, then answer a question from them with the steps that "
           "justify it.",
           (Argument("file", "the notes: a .txt, .md or .pdf file, or a .pl file of facts and rules"),
            Argument("question", "the question, in English")),
           "Use sym to answer from my notes.\n"
           "1. Read {file} into sym: call `consult` with file={file} if it is a Prolog file (.pl), else `load` "
           "with file={file} (for its passages) and then `extract` or `tell` the facts it states.\n"
           "2. Call `ask` with question={question!r}.\n"
           "3. Give the answer (true / false / unknown, or the values) with the steps sym shows, and say whether "
           "it is verified."),
    Prompt("prove-claim", "Prove or refute a claim with Z3: proved, refuted with a counter-model, unknown, or "
           "inconsistent with an unsat core.",
           (Argument("claim", "the claim, in English, or a program (Proof-of-Thought JSON or SMT-LIB 2)"),),
           "Use sym to settle this claim with a proof:\n\n{claim}\n\n"
           "If it is a program (JSON or SMT-LIB), call `prove` with program set to it; otherwise call `prove` with "
           "question set to the claim. Report each verification's status, and for a refuted one the counter-model."),
    Prompt("check-memory", "Check that sym's working memory is consistent and say what clashes if it is not.",
           (),
           "Call sym's `check` tool. If memory is consistent, say so and how many items were checked. If not, "
           "list the clashing items (the unsat core, with their ids from `listing`) and suggest which one to "
           "`forget`, but forget nothing without asking me."),
    Prompt("explain-fact", "Show why a fact holds in sym's memory, as a proof tree.",
           (Argument("goal", "the fact, in Prolog syntax: grandparent_of(ann, cy)"),),
           "Call sym's `why` tool with goal={goal!r} and explain the proof tree it returns step by step, naming "
           "the facts and rules it uses."),
)

BY_NAME = {p.name: p for p in PROMPTS}


def prompt_text(name: str, arguments: dict[str, str] | None) -> tuple[Prompt, str]:
    """The prompt named `name` and its text for `arguments` (UserError for a bad name or argument)."""
    prompt = BY_NAME.get(name)
    if prompt is None:
        raise UserError(f"unknown prompt {name!r}", hint="prompts/list names them: " + ", ".join(BY_NAME))
    return prompt, prompt.text(arguments)
