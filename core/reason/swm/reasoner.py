"""The Symbolic Working Memory reasoner: `tell` (NL → facts and rules) and `ask` (question →
goal → step-wise rule application → three-valued answer with its justification).

Hybrid mode: templated sentences go through the controlled-English fast path; the rest
through the LLM against the current schema. Formal rules run in the engine (zero LLM
calls); soft rules are grounded symbolically and implemented by the LLM, one call per new
instance, instances of a step in parallel. Paper mode lets the LLM implement every rule
instance, as the published method does, in a scratch copy that never touches memory.

Every LLM call happens before anything is written, so a failed call changes nothing.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, overload

from sym.core.errors import Cancelled, ParseError, UserError
from sym.core.events import TraceNode, ignore
from sym.core.llm import LLMError
from sym.core.llm.jsonout import parse_json_reply
from sym.core.logic.engine import TRUE, Engine, Violation
from sym.core.logic.parser import parse_atom, parse_program, parse_query
from sym.core.logic.terms import Atom, Const, Naf, Rule, Var, format_const
from sym.core.memory.working import SOFT, Item, WorkingMemory, item_id
from sym.core.reason.swm import answers, english, extract_vote, extraction, fastpath, naming, prompts, universal
from sym.core.reason.swm.choice import Invalid
from sym.core.reason.swm.grounding import applicable, ground
from sym.core.reason.swm.outcomes import AskOutcome, TellIncomplete, Told, quoted, said_otherwise
from sym.core.reason.swm.relevance import relevant_items
from sym.core.reason.swm.trace import answer_atoms, trace_proof

if TYPE_CHECKING:
    from sym.core.llm.facade import LLM
    from sym.core.reason.swm.english import Goal, Translation, Update
    from sym.core.reason.swm.extraction import Reading
    from sym.core.run import Run


NO_MODEL = ("unreachable", "no-model", "offline")


def _rule_head(it: Item) -> Atom:
    """The head of a rule item (a rule, not a constraint: it has one)."""
    assert isinstance(it.clause, Rule) and it.clause.head is not None
    return it.clause.head


def _not_there(atom: Atom, sentence: str) -> str:
    """An operation's failed precondition in the sentence's words: "the shoe is not in Box 1"."""
    def name(const: Const) -> str:
        found = re.search(r"\b(the\s+)?" + re.escape(str(const).replace("_", " ")) + r"\b", sentence, re.I)
        return found.group(0) if found else format_const(const)

    if atom.pred == "contains" and len(atom.args) == 2:
        return f"{name(atom.args[1])} is not in {name(atom.args[0])}"
    return f"{atom} does not hold"


_CASED_PRED = re.compile(r"(?<![\w'])([A-Z]\w*)\s*\(")


def lower_predicates(text: str) -> str:
    """`Likes(bob, X)` → `likes(bob, X)`: models capitalise predicate names, which the grammar
    would read as variables; a name directly before `(` is never a variable."""
    return _CASED_PRED.sub(lambda m: m.group(1).lower() + "(", text)


def _premise_text(memory: WorkingMemory, atom: Atom) -> str:
    item = memory.items.get(item_id(atom))
    return f"{atom}  ({item.nl})" if item is not None and item.nl else str(atom)



class SWM:
    """One reasoner over one working memory, for one run (core/run.py): its events, cancel flag
    and model client (built only when a sentence or rule needs it; a run without one has none)."""

    def __init__(self, memory: WorkingMemory, run: Run, *, merge: str = "ask", samples: int | None = None) -> None:
        self.memory = memory
        self.run = run
        # readings of a sentence the grammar cannot read, voted on above 1 (extract_vote.py)
        self.samples = max(1, int(samples if samples is not None else getattr(run.settings, "llm_samples", 1)))
        self.run_id = run.id      # drawn now: a /tell or /ask takes its run number whether or not it traces
        self.merge = merge
        self._nodes = 0
        self._shown: dict[str, tuple[str, str, str | None]] = {}    # node -> (kind, label, parent), to settle it
        self.llm_calls = 0
        self.failed_calls = 0
        self._why_not: dict[str, str] = {}      # sentence → why the grammar refused it (for messages)

    # -- plumbing ------------------------------------------------------------------

    @property
    def llm(self) -> LLM:
        return self.run.llm      # UserError when no model is configured

    def _node(self, kind: str, label: str, parent: str | None = None, detail: str = "", status: str = "", *,
              node: str | None = None) -> str:
        """Emit a trace node (a new one, or `node` again with a new label) and return its id."""
        if node is None:
            self._nodes += 1
            node = f"{self.run_id}.{self._nodes}"
        self._shown[node] = (kind, label, parent)
        self.run.emit(TraceNode(self.run_id, node, parent, kind, label, detail, status))
        return node

    def _settle(self, node: str, detail: str, status: str) -> None:
        """Emit a node again, as it was, with what came of it."""
        kind, label, parent = self._shown[node]
        self.run.emit(TraceNode(self.run_id, node, parent, kind, label, detail, status))

    # -- tell ----------------------------------------------------------------------

    def tell(self, text: str | list[str], *, source: str = "tell", partial: bool = False,
             approver: Callable[[str], bool] | None = None) -> list[Told]:
        """Add statements (a text, or sentences already split). All model calls happen first. If
        some sentence cannot be read, nothing is stored and TellIncomplete says which, unless
        `partial`, which stores what was understood and reports the rest."""
        sentences = english.split_sentences(text) if isinstance(text, str) else [s for s in text if s.strip()]
        if not sentences:
            raise UserError("nothing to tell", hint="e.g. /tell Bob is big. All big things are red.")
        fast = fastpath.read(self.memory, sentences)
        plan = [(s, tr) for s, tr, _ in fast]
        self._why_not = {s: why for s, _, why in fast if why}
        unknown = [s for s, tr in plan if tr is None]
        if unknown and self.run.settings.tell_model == "rewrite":     # the model rewrites, the grammar reads
            from sym.core.reason.swm import rewrite
            return rewrite.tell(self, sentences, plan, source=source, partial=partial, approver=approver)
        readings, no_model = (self._read(unknown, sentences, plan) if unknown else ({}, None))
        failed = [s for s in unknown if s not in readings or not readings[s].clauses]
        if failed and not partial:
            self._refuse(sentences, failed, readings, no_model)
        told: list[Told] = []
        for sentence, tr in plan:
            self.run.check()
            if tr is not None:
                told.append(self._store_translation(sentence, tr, source))
            elif sentence in failed:
                reading = readings.get(sentence)
                told.append(Told(sentence, "none", problem=reading.problem if reading else
                                 self._needs_model(sentence) + (f" ({no_model.message})" if no_model is not None else "")))
            else:
                told.append(self._store_extracted(sentence, readings[sentence], source))
        return told

    def _read(self, unknown: list[str], sentences: list[str],
              plan: list[tuple[str, Translation | None]]) -> tuple[dict[str, Reading], LLMError | UserError | None]:
        """Sentences the grammar could not read, read by the model: ({sentence: Reading}, None),
        or ({}, the error) when no model is configured or reachable."""
        try:
            llm = self.llm
        except UserError as err:
            return {}, err
        extra: dict[str, set[int]] = {}
        for _s, tr in plan:
            for text in (tr.clauses if tr is not None else []):
                for loc in parse_program(text):
                    clause = loc.clause
                    atoms = [clause] if isinstance(clause, Atom) else [
                        a for a in (clause.head if isinstance(clause, Rule) else None, *clause.body)
                        if isinstance(a, Atom)]
                    for a in atoms:
                        extra.setdefault(a.pred, set()).add(len(a.args))
        sampled = f", {self.samples} samples voted" if self.samples > 1 else ""
        parent = self._node("tell.llm", f"read {len(unknown)} sentence(s) with the model{sampled}")
        tally = extraction.Tally()

        def node(sentence: str, problem: str, vote: str = "") -> None:
            self._node("tell.sentence", sentence[:80], parent, problem or vote and f"vote: {vote}",
                       "failed" if problem else "ok")

        try:
            rules = (it.clause for it in self.memory.items.values() if it.kind == "rule")
            background = extraction.Background(self.memory.schema, extra, sentences, extraction.symmetric(rules))
            readings = extract_vote.read(llm, unknown, background, samples=self.samples, canonical=self._canonical,
                                         tally=tally, node=node)
        except LLMError as err:
            self.llm_calls += tally.calls
            self.failed_calls += 1
            if err.reason in NO_MODEL and not tally.calls:
                return {}, err
            raise
        self.llm_calls += tally.calls
        for reading in readings:
            reading.clauses = [(kind, self._canonical(c)) for kind, c in reading.clauses]
        return {r.sentence: r for r in readings}, None

    def _refuse(self, sentences: list[str], failed: list[str], readings: dict[str, Reading],
                no_model: LLMError | UserError | None) -> None:
        told = [Told(s, "none", problem=(readings[s].problem if s in readings else self._needs_model(s)),
                     drawn=readings[s].drawn if s in readings else 0)
                if s in failed else Told(s, "llm" if s in readings else "fast", kept=False) for s in sentences]
        understood = f"{len(sentences) - len(failed)} of {len(sentences)} sentences understood"
        keep = "/tell --partial … keeps the understood ones"
        if no_model is not None:
            raise TellIncomplete(f"{understood}; needs a model: {quoted(failed)}", told,
                                 hint=f"{no_model.message}; {keep}",
                                 exit_code=getattr(no_model, "exit_code", 1))
        why = readings[failed[0]].problem
        raise TellIncomplete(f"{understood}; not understood: {quoted(failed)} ({why[:160]})", told,
                             hint=f"rephrase, or {keep}")

    def _needs_model(self, sentence: str) -> str:
        why = self._why_not.get(sentence, "")
        return f"needs a model (the grammar refused it: {why})" if why else "needs a model"

    def _store_translation(self, sentence: str, tr: Translation, source: str) -> Told:
        out = Told(sentence, "state" if tr.updates else "fast", read_as=said_otherwise(sentence, tr.paraphrase))
        missing: list[str] = []        # operations whose item was not where the sentence says
        for update in tr.updates:
            removed, added, absent = self._apply_update(update, sentence, source)
            out.removed += removed
            out.items += added
            missing += absent
        if missing:
            done = "moved" if any(u.add for u in tr.updates) else "removed"
            out.warning = "; ".join(missing) + (f": not {done}" if out.items or out.removed else f": nothing {done}")
        if tr.clauses:
            clauses = [(loc.clause, source) for text in tr.clauses for loc in parse_program(text)]
            outcome = self.memory.add(clauses, nl=tr.nl or sentence, merge=self.merge)
            out.items += outcome.items
            out.duplicates += outcome.duplicates
            naming.name_predicates(self.memory, [c for c, _ in clauses])
        return out

    def _store_extracted(self, sentence: str, reading: Reading, source: str) -> Told:
        soft = [(c, SOFT + source) for kind, c in reading.clauses if kind == "soft"]
        hard = [(c, "llm:" + source) for kind, c in reading.clauses if kind != "soft"]
        out = Told(sentence, "soft" if soft and not hard else "llm", vote=reading.vote, warning=reading.note,
                   drawn=reading.drawn)
        for group in (hard, soft):
            if group:
                outcome = self.memory.add(group, nl=sentence, merge=self.merge)
                out.items += outcome.items
                out.duplicates += outcome.duplicates
        return out

    def _apply_update(self, update: Update, sentence: str, source: str) -> tuple[list[Item], list[Item], list[str]]:
        """A state change: for each binding of `match`, remove then add (Boxes-style operations).
        Also says which named item was not where the sentence says ("the shoe is not in Box 1"):
        a ground match that fails, or a ground removal of what memory does not hold."""
        bindings: Sequence[dict[str, Any]] = [{}]
        absent: list[Atom] = []
        if update.match.strip():
            query = parse_query(update.match)
            try:
                bindings = self.memory.ask(query).bindings if not query.is_ground else (
                    [{}] if self.memory.ask(query).truth == TRUE else [])
            except UserError:      # a predicate nobody has used yet: nothing matches
                bindings = []
            if query.is_ground and not bindings:
                absent += [lit for lit in query.body if isinstance(lit, Atom)]
        doomed: list[Atom] = []
        fresh: list[Atom] = []
        for b in bindings:
            doomed += [ground(parse_atom(t), b) for t in update.remove]
            fresh += [ground(parse_atom(t), b) for t in update.add]
        removed = self.memory.remove([item_id(a) for a in doomed])
        if not update.match.strip():
            gone = {it.id for it in removed}
            absent += [a for a in doomed if item_id(a) not in gone]
        outcome = self.memory.add([(a, source) for a in fresh], nl=sentence, merge="off") if fresh else None
        return removed, (outcome.items if outcome else []), [_not_there(a, sentence) for a in absent]

    @overload
    def _canonical(self, clause: Atom) -> Atom: ...
    @overload
    def _canonical(self, clause: Atom | Rule) -> Atom | Rule: ...

    def _canonical(self, clause: Atom | Rule) -> Atom | Rule:
        """Predicates the model misspelt or cased differently mapped onto known ones."""
        known: dict[int, list[str]] = {}
        for key in self.memory.schema.predicates:
            name, _, arity = key.rpartition("/")
            known.setdefault(int(arity), []).append(name)

        def fix(atom: Atom) -> Atom:
            names = known.get(len(atom.args), [])
            pred = atom.pred.lower() if atom.pred.lower() in names else atom.pred
            if pred not in names:
                squash: Callable[[str], str] = lambda n: n.replace("_", "").rstrip("s")  # noqa: E731
                close = [n for n in names if squash(n) == squash(pred.lower())]
                close = close or difflib.get_close_matches(pred.lower(), names, n=1, cutoff=0.88)
                pred = close[0] if close else pred
            return Atom(pred, atom.args, atom.neg)

        if isinstance(clause, Atom):
            return fix(clause)
        body = tuple(fix(b) if isinstance(b, Atom) else Naf(fix(b.atom)) if isinstance(b, Naf) else b
                     for b in clause.body)
        return Rule(fix(clause.head) if clause.head is not None else None, body)

    # -- ask -----------------------------------------------------------------------

    def goal(self, question: str) -> Goal:
        goal = english.question_goal(question)
        if goal is not None:
            return goal
        tally = extraction.Tally()
        try:
            chosen = extraction.read_goal(self.llm, question, self.memory.schema, tally=tally)
        except Invalid as err:
            raise UserError(f"the model could not turn the question into a goal: {err}",
                            hint="rephrase the question, or ask with ?- in logic") from None
        finally:
            self.llm_calls += tally.calls
        atom = chosen.atom
        if chosen.kind == "relation":
            shown = ", ".join(format_const(a) for a in atom.args)
            return english.Goal("relation", f"R_of({shown})", tuple(atom.args), question)
        return english.Goal(chosen.kind, str(self._canonical(atom)), (), question)

    def ask(self, question: str, *, mode: str = "hybrid", max_steps: int | None = None,
            open_world: bool = True, fallback: bool = True) -> AskOutcome:
        root = self._node("ask.goal", question[:120])    # before the goal is read: its model call is the run's
        try:
            goal = self.goal(question)
            self._node("ask.goal", f"{goal.kind}: {goal.query}", detail=question, node=root)
            out, undecided = self._answer(goal, root, question, mode, max_steps, open_world, fallback)
        except UserError as err:
            self._settle(root, err.message, "cancelled" if isinstance(err, Cancelled) else "failed")
            raise
        status = "unverified" if not out.verified else "unknown" if undecided else \
            "inconsistent" if out.answer == answers.INCONSISTENT else "ok"
        self._node("ask.answer", f"answer: {' '.join(out.answer.split())[:120] or 'none'}", root,
                   out.settle or "; ".join(out.steps[:4]), status)
        return out

    def _answer(self, goal: Goal, root: str, question: str, mode: str, max_steps: int | None, open_world: bool,
                fallback: bool) -> tuple[AskOutcome, bool]:
        """The outcome of `ask`, and whether memory left it undecided."""
        if goal.kind == "every":          # "Is every cat black?": entailed, refuted, or unknown (universal.py)
            out = universal.outcome(self.memory, goal, open_world)
            out.mode, out.run, out.llm_calls = mode, self.run_id, self.llm_calls
            return out, out.answer == universal.UNKNOWN
        if mode == "paper":
            out, memory_answer = self._ask_paper(goal, root, max_steps, open_world)
        else:
            out, memory_answer = self._ask_hybrid(goal, root, max_steps, open_world)
        universal.refine(self.memory, goal, out, open_world)     # "Is any cat black?": false when none can be
        out.mode, out.run = mode, self.run_id
        # "unknown" about a known predicate is an answer (open world); a question about a predicate
        # memory has never heard of, or an existential one ("Is anything big?") it cannot settle, is not
        unheard = not answers.mentions(goal, self.memory.engine)
        undecided = (unheard and answers.undecided(goal, memory_answer, out.values)
                     or goal.kind == "truth" and not parse_query(goal.query).is_ground
                     and answers.undecided(goal, out.answer, out.values))
        if undecided and fallback and self.run.has_model:
            self._fall_back(out, question, root)
        out.llm_calls = self.llm_calls
        return out, undecided or answers.undecided(goal, out.answer, out.values)

    def _fall_back(self, out: AskOutcome, question: str, root: str) -> None:
        """The model's answer, labelled unverified; with no model to ask, memory's answer stays."""
        try:
            guess = self.llm.chat(prompts.fallback_messages(question, self.context_lines(question)),
                                  purpose="ask.fallback")
        except LLMError as err:
            if err.reason not in NO_MODEL:
                raise
            self.failed_calls += 1
            out.note = f"no model answered: {err.message}"
            self._node("ask.fallback", "no model to ask", root, err.message, "failed")
            return
        self.llm_calls += 1
        out.answer, out.verified = guess.text.strip(), False
        self._node("ask.fallback", "unverified LLM answer", root, out.answer[:200], "unverified")

    def _ask_hybrid(self, goal: Goal, root: str, max_steps: int | None, open_world: bool) -> tuple[AskOutcome, str]:
        """The outcome in the question's world, and the open-world answer the steps reached."""
        done: set[tuple[str, tuple[Any, ...]]] = set()
        seen: set[Atom] = set()          # derived facts the trace has shown
        rounds = 0
        engine = self.memory.engine
        engine.unlimited()                # a model an /infer N left is not the question's
        while True:
            self.run.check()
            # goal-directed: the answer, and below the soft rules' instances, each evaluate only what
            # they need (the whole model only where it is current already); the steps run open-world:
            # a soft rule may still settle what is not derivable yet
            answer, values = answers.check(goal, engine, self.memory, True)
            if self.run.emit is not ignore:       # a bench watches nothing: it need not walk the proofs
                clashes = answers.clashing(goal, engine) if answer == answers.INCONSISTENT else []
                trace_proof(self._node, self.memory, root, answer_atoms(goal, engine, answer, values), seen, rounds,
                            clashes)
            if answers.solved(goal, answer) or (max_steps is not None and rounds >= max_steps):
                break
            soft = [it for it in self.memory.items.values() if it.soft and it.kind == "rule"]
            instances = applicable(soft, engine, done)
            if not instances:
                break
            rounds += 1
            step = self._node("ask.step", f"step {rounds}: grounding found {len(instances)} soft rule instance(s)",
                              root)
            new = self._implement(instances, step)
            added = self.memory.add([(fact, f"llm:{self.run_id}") for fact, _ in new],
                                    nl="", merge="off").items if new else []
            for it in added:
                why = next(why for fact, why in new if item_id(fact) == it.id)
                self._node("ask.fact", it.text, step, why, "ok")
            if not added:
                break
        reached = answer
        if not open_world:
            answer, values = answers.check(goal, engine, self.memory, False)
        steps = answers.justify(self.memory, goal, answer, values, open_world=open_world)
        out = AskOutcome(goal.question, goal.query, goal.kind, answer, True, steps, rounds, 0, values)
        self._explain(out, goal, engine)
        return out, reached

    def _ask_paper(self, goal: Goal, root: str, max_steps: int | None, open_world: bool) -> tuple[AskOutcome, str]:
        """Every rule instance implemented by the LLM, in a scratch engine (memory untouched)."""
        scratch = Engine()
        scratch.add_facts(it.clause for it in self.memory.items.values() if isinstance(it.clause, Atom))   # the facts
        rules = [it for it in self.memory.items.values() if it.kind == "rule"]
        done: set[tuple[str, tuple[Any, ...]]] = set()
        rounds = 0
        answer, values = answers.check(goal, scratch, self.memory, True)
        while not answers.solved(goal, answer) and (max_steps is None or rounds < max_steps):
            self.run.check()
            instances = applicable(rules, scratch, done)
            if not instances:
                break
            rounds += 1
            step = self._node("ask.step", f"step {rounds}: {len(instances)} rule instance(s) for the LLM", root)
            new = self._implement(instances, step)
            if not new:
                break
            scratch.add_facts(fact for fact, _ in new)
            answer, values = answers.check(goal, scratch, self.memory, True)
        reached = answer
        if not open_world:
            answer, values = answers.check(goal, scratch, self.memory, False)
        out = AskOutcome(goal.question, goal.query, goal.kind, answer, True,
                         [f"{rounds} step(s) of LLM rule implementation"], rounds, 0, values)
        out.settle = answers.settle(goal, scratch, answer, values)
        return out, reached

    def _explain(self, out: AskOutcome, goal: Goal, engine: Engine) -> None:
        """What would settle an undecided answer; for an inconsistent one, both derivations of
        each clash and the stored items they come from."""
        out.settle = answers.settle(goal, engine, out.answer, out.values)
        if out.answer != answers.INCONSISTENT:
            return
        atoms = answers.clashing(goal, engine)
        out.derivations = answers.derivations(self.memory, atoms)
        out.steps = [step for _side, steps in out.derivations for step in steps]
        found: dict[str, dict[str, str]] = {}
        for atom in atoms:
            for it in answers.clash_items(self.memory, Violation((atom, atom.negate()))):
                found.setdefault(it["id"], it)
        out.clash = list(found.values())
        both = "; ".join(f"{a} and {a.negate()}" for a in atoms)
        out.settle = f"memory derives both {both}: /forget one of the clashing items"

    def _implement(self, instances: list[tuple[Item, dict[str, Any], list[Atom]]], parent: str) -> list[tuple[Atom, str]]:
        llm = self.llm
        batches = [prompts.implementation_messages(it.nl, it.text, [_premise_text(self.memory, p) for p in premises],
                                                   str(ground(_rule_head(it), b)))
                   for it, b, premises in instances]
        replies = llm.chat_many(batches, purpose="ask.rule", format=prompts.Implementation.model_json_schema())
        self.llm_calls += len(replies)
        out: list[tuple[Atom, str]] = []

        used = [(r.prompt_tokens, r.completion_tokens) for r in replies]
        self._settle(parent, f"{len(replies)} model call(s), {sum(p for p, _ in used)}+{sum(c for _, c in used)} "
                             "tokens", "ok")
        for (it, _b, premises), reply in zip(instances, replies):
            why = f"rule {it.id} on {', '.join(map(str, premises))} · " \
                  f"{reply.prompt_tokens}+{reply.completion_tokens} tokens"
            try:
                impl = parse_json_reply(reply.text, prompts.Implementation)
            except UserError as err:
                self._node("ask.rejected", f"unusable reply for {it.id}", parent, f"{err.message} · {why}", "failed")
                continue
            if not impl.applies:
                self._node("ask.rejected", f"{it.id} does not apply", parent, why, "rejected")
                continue
            for text in impl.facts:
                try:
                    fact = self._canonical(parse_atom(lower_predicates(text.strip().rstrip("."))))
                except ParseError as err:
                    self._node("ask.rejected", f"bad fact {text!r}", parent, err.message, "failed")
                    continue
                if any(isinstance(a, Var) for a in fact.args):
                    continue
                out.append((fact, why))
        return out

    # -- context for chat and fallbacks --------------------------------------------

    def context_lines(self, text: str, k: int = 8) -> list[str]:
        return [f"[{it.id}] {it.text}" + (f"  ({it.nl})" if it.nl else "") for it in relevant_items(self.memory, text, k)]
