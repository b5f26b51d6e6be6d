"""Policy commands: steering rules (/policy …) and rating the last run (/rate).

The work is in core.reason.policy; these functions parse arguments and wrap the answers
in results. Nothing here changes a rule without the user asking for exactly that change.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from sym.core.errors import UserError
from sym.core.reason.policy.loader import load_yaml
from sym.core.reason.policy.stats import combination_stats, rule_stats
from sym.core.run import Run
from sym.repl.arguments import Args, Option
from sym.repl.context import Context
from sym.repl.registry import command
from sym.repl.render import to_text
from sym.repl.results import Message, Result
from sym.repl.steering import book, policy_state, store

DEFAULT_THRESHOLD = 0.5


@dataclass
class PolicyList(Result):
    kind: ClassVar[str] = "policies"
    rules: list[dict]
    path: str | None = None
    error: str | None = None

    def to_dict(self) -> dict:
        out: dict = {"rules": self.rules, "file": self.path}
        if self.error:
            out["error"] = self.error
        return out


@dataclass
class PolicyStats(Result):
    kind: ClassVar[str] = "policy-stats"
    threshold: float
    rules: list[dict]
    combinations: dict[str, dict]
    runs: int = 0

    def to_dict(self) -> dict:
        return {"threshold": self.threshold, "runs": self.runs, "rules": self.rules,
                "combinations": self.combinations}


@dataclass
class Suggestions(Result):
    kind: ClassVar[str] = "policy-suggestions"
    suggestions: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"suggestions": self.suggestions, "notes": self.notes}


def _fmt(v: object) -> str:
    return "-" if v is None else f"{v:.2f}" if isinstance(v, float) else str(v)


def _summary_line(label: str, s: dict) -> str:
    if not s["scored"]:
        return f"{label}: {s['runs']} runs, none scored"
    return (f"{label}: {s['runs']} runs, {s['scored']} scored, mean {_fmt(s['mean'])} "
            f"(min {_fmt(s['min'])}, max {_fmt(s['max'])}, std {_fmt(s['std'])}), success {_fmt(s['success'])}")


@to_text.register
def _(r: PolicyList) -> str:
    lines = [f"error: {r.error}"] if r.error else []
    if not r.rules:
        lines.append("no policy rules — /policy add {name: N, target: llm, filter: {...}, attributes: {...}}")
    for i, rule in enumerate(r.rules, start=1):
        state = "" if rule["enabled"] else "  [disabled]"
        prio = f"  priority {rule['priority']}" if rule["priority"] else ""
        lines.append(f"{i:2}. {rule['name']} ({rule['target']}): {rule['summary']}{prio}{state}")
    if r.path:
        lines.append(f"file: {r.path}")
    return "\n".join(lines)


@to_text.register
def _(r: PolicyStats) -> str:
    if not r.runs:
        return "no steered runs recorded yet"
    lines = [f"{r.runs} runs recorded; success = score >= {r.threshold}"]
    for rs in r.rules:
        lines.append(_summary_line(f"rule {rs['rule']}", rs["applied"]))
        delta = f", delta {rs['delta']:+.2f}" if rs["delta"] is not None else ""
        lines.append("  " + _summary_line("without it", rs["baseline"]) + delta)
    if r.combinations:
        lines.append("by attributes:")
        lines += ["  " + _summary_line(key, s) for key, s in r.combinations.items()]
    return "\n".join(lines)


@to_text.register
def _(r: Suggestions) -> str:
    lines = list(r.notes)
    if not r.suggestions:
        lines.append("no suggestions: no rule under-performs (rules need 3 scored runs; /rate N scores a run)")
    for s in r.suggestions:
        body = s["body"]
        what = {"disable": f"disable {s['rule']}", "add": f"add {body.get('name')}",
                "replace": f"change {s['rule']}"}.get(s["action"], s["action"])
        attrs = ", ".join(f"{k}={v}" for k, v in body.get("attributes", {}).items())
        lines.append(f"{s['id']}: {what} → {attrs}" + ("" if s["action"] != "disable" else " (disabled)"))
        lines.append(f"    why: {s['reason']} [{s['origin']}]")
    if r.suggestions:
        lines.append("nothing has changed: /policy accept ID applies one")
    return "\n".join(lines)


def _state(ctx: Context):
    return policy_state(ctx), book(ctx)


def _store(ctx: Context):
    return store(ctx)


OPTIONS = (
    Option("--threshold", float, metavar="X", low=0.0, high=1.0, default=DEFAULT_THRESHOLD,
           help=f"stats, suggest: the score a run needs to count as a success (default {DEFAULT_THRESHOLD})"),
    Option("--llm", bool, help="suggest: let the model propose rewrites too"),
)


def _name(rest: str) -> str:
    if not rest or len(rest.split()) != 1:
        raise UserError("name one rule (or suggestion id)", hint="/policy list shows them")
    return rest.strip()


def _listing(book) -> PolicyList:
    book.refresh()
    rules = [{"name": r.name, "target": r.target, "filter": r.filter, "attributes": r.attributes,
              "enabled": r.enabled, "priority": r.priority, "summary": r.summary()} for r in book.rules]
    return PolicyList(rules, str(book.path) if book.path else None,
                      str(book.error) if book.error is not None else None)


def _add(book, text: str) -> Message:
    from sym.core.reason.policy.rules import rule_from_data

    if not text:
        raise UserError("/policy add needs a rule",
                        hint="/policy add {name: cheap, target: llm, filter: {command: /ask}, attributes: {temperature: 0}}")
    try:
        data = load_yaml(text, source="the rule")
    except UserError as err:   # the same safe loader as policies.yaml: JSON's types only
        raise UserError(err.message.replace("the rule:1:", "the rule is not valid at column ", 1),
                        hint="write it as a flow mapping: {name: N, target: llm, attributes: {model: M}}") from None
    rule = rule_from_data(data)
    book.add(rule)
    from sym.core.reason.policy.classify import run_attributes

    known = run_attributes("/ask", "", workspace="default")
    unknown = [k for k in rule.filter if k not in known]    # a typo such as `comand` never matches
    note = (f"; note: {', '.join(unknown)} is no run attribute, so the rule never applies "
            f"(filters use {', '.join(known)})") if unknown else ""
    return Message(f"added rule {rule.name!r}: {rule.summary()}{note}",
                   {"rule": rule.to_yaml_dict(), "unknown_filter_keys": unknown})


def _show(ctx, state, book, name: str) -> Message:
    import yaml

    rule = book.get(name)
    text = yaml.safe_dump(rule.to_yaml_dict(), sort_keys=False, allow_unicode=True).rstrip()
    stats = rule_stats(_store(ctx).runs(), [name], DEFAULT_THRESHOLD)[0].to_dict()
    return Message(text + "\n" + _summary_line("runs", stats["applied"]), {"rule": rule.to_yaml_dict(),
                                                                            "stats": stats})


def _classify(book, rest: str) -> Message:
    from sym.core.reason.policy.classify import BUILTIN_TYPES

    parts = rest.split()
    if not parts:
        mine = [f"{t}: {', '.join(kws)}" for t, kws in book.head.classify.items()]
        built = [f"{t}: {', '.join(kws)}" for t, kws in BUILTIN_TYPES.items()]
        lines = (["your types (checked first):", *("  " + m for m in mine)] if mine else []) + [
            f"classifier: {book.head.classifier}", "built-in types:", *("  " + b for b in built)]
        return Message("\n".join(lines), {"user": book.head.classify, "classifier": book.head.classifier})
    goal_type = parts[0].lower()
    if len(parts) < 2:
        raise UserError("name the keywords too", hint="/policy classify legal contract tort liability")
    if not goal_type.replace("_", "").replace("-", "").isalnum():
        raise UserError(f"bad goal type {parts[0]!r}", hint="letters, digits, _ and -")
    keywords = [k.lower() for k in parts[1:]]
    book.set_keywords(goal_type, keywords)
    return Message(f"goal_type {goal_type}: {', '.join(book.head.classify[goal_type])}",
                   {"goal_type": goal_type, "keywords": book.head.classify[goal_type]})


def _stats(ctx, state, book, rest: list[str], threshold: float) -> PolicyStats:
    if rest:
        raise UserError(f"unexpected {' '.join(rest)!r}", hint="/policy stats [--threshold 0.6]")
    records = _store(ctx).runs()
    rules = [rs.to_dict() for rs in rule_stats(records, [r.name for r in book.rules], threshold)]
    combos = {k: s.to_dict() for k, s in combination_stats(records, threshold).items()}
    return PolicyStats(threshold, rules, combos, len(records))


def _suggest(ctx, run: Run, state, book, rest: list[str], threshold: float, use_llm: bool) -> Suggestions:
    from sym.core.reason.policy import suggest

    if rest:
        raise UserError(f"unexpected {' '.join(rest)!r}", hint="/policy suggest [--llm] [--threshold 0.6]")
    store = _store(ctx)
    records = store.runs()
    proposals = suggest.statistical(book, records, threshold)
    notes = []
    if use_llm:
        try:
            proposals += suggest.rewritten(run.llm, book, records, threshold, emit=run.emit)
        except UserError as err:
            notes.append(f"no LLM rewrites: {err.message}")
    return Suggestions(suggest.record(store, proposals), notes)


def _decide(ctx, state, book, verb: str, sid: str) -> Message:
    from sym.core.reason.policy import suggest

    store = _store(ctx)
    if verb == "reject":
        s = store.suggestion(sid)
        if s is None or s["status"] != "pending":
            raise UserError(f"no pending suggestion {sid!r}", hint="/policy suggest lists them")
        store.mark_suggestion(sid, "rejected")
        return Message(f"rejected {sid}", {"rejected": sid})
    s, rule = suggest.accept(book, store, sid)
    return Message(f"accepted {s['id']}: rule {rule.name!r} now {rule.summary()}"
                   + ("" if rule.enabled else " (disabled)"), {"accepted": s["id"], "rule": rule.to_yaml_dict()})


@dataclass(frozen=True)
class Verb:
    """A /policy sub-verb, declared once: dispatch, usage, completion and help all read it."""

    name: str
    act: Callable[[Context, Run, Args, str], Result]     # (ctx, run, args, the text after the verb)
    help: str = ""              # its line of /help /policy (verbs that share a line leave it empty)
    rule_named: bool = False    # it takes a rule name: completion offers the rules
    aliases: tuple[str, ...] = ()


def _on_book(fn: Callable[..., Result]) -> Callable[[Context, Run, Args, str], Result]:
    """A verb that only needs the workspace's policy book and the text after it."""
    return lambda ctx, run, args, rest: fn(_state(ctx)[1], rest)


def _switch(ctx: Context, run: Run, args: Args, rest: str, *, enabled: bool) -> Result:
    from sym.core.reason.policy.rules import rule_from_data

    _, book = _state(ctx)
    rule = book.get(_name(rest))
    book.add(rule_from_data({**rule.to_yaml_dict(), "enabled": enabled}), replace=True)
    verb = "enable" if enabled else "disable"
    return Message(f"rule {rule.name!r} {verb}d", {"rule": rule.name, "enabled": enabled})


def _remove(ctx: Context, run: Run, args: Args, rest: str) -> Result:
    rule = _state(ctx)[1].remove(_name(rest))
    return Message(f"removed rule {rule.name!r}", {"removed": rule.name})


def _classifier(ctx: Context, run: Run, args: Args, rest: str) -> Result:
    if rest not in ("llm", "keywords"):
        raise UserError("/policy classifier takes llm or keywords",
                        hint="llm: the model types each input (one call per steered run)")
    _state(ctx)[1].set_classifier(rest)
    return Message(f"goal types now come from {'the model' if rest == 'llm' else 'keywords'}", {"classifier": rest})


def _with_state(fn: Callable[..., Result]) -> Callable[[Context, Run, Args, str], Result]:
    """A verb that needs the shell's policy state, the book and the rule or suggestion it names."""
    def act(ctx: Context, run: Run, args: Args, rest: str) -> Result:
        state, book = _state(ctx)
        return fn(ctx, state, book, _name(rest))
    return act


VERBS = (
    Verb("list", lambda ctx, run, args, rest: _listing(_state(ctx)[1]),
         help="/policy list                      the rules, in file order"),
    Verb("show", _with_state(_show), rule_named=True),
    Verb("add", _on_book(_add),
         help='/policy add {name: cheap, target: llm, filter: {command: /ask, length: "< 20"}, attributes: {temperature: 0}}'),
    Verb("rm", _remove, rule_named=True, aliases=("remove",),
         help="/policy rm|enable|disable NAME    remove or switch a rule; /policy show NAME prints it with its stats"),
    Verb("enable", lambda ctx, run, args, rest: _switch(ctx, run, args, rest, enabled=True), rule_named=True),
    Verb("disable", lambda ctx, run, args, rest: _switch(ctx, run, args, rest, enabled=False), rule_named=True),
    Verb("classify", _on_book(_classify),
         help="/policy classify TYPE KEYWORD…    inputs with a keyword get goal_type TYPE (no arguments: list types)"),
    Verb("classifier", _classifier,
         help="/policy classifier llm|keywords   let the model type inputs your keywords do not (one call per run)"),
    Verb("stats", lambda ctx, run, args, rest: _stats(ctx, *_state(ctx), rest.split(), args.threshold),
         help="/policy stats [--threshold 0.6]   per rule and attribute combination: runs, mean, min/max, std, success"),
    Verb("suggest", lambda ctx, run, args, rest: _suggest(ctx, run, *_state(ctx), rest.split(), args.threshold, args.llm),
         help="/policy suggest [--llm]           propose edits of under-performing rules; /policy accept|reject ID"),
    Verb("accept", lambda ctx, run, args, rest: _decide(ctx, *_state(ctx), "accept", _name(rest))),
    Verb("reject", lambda ctx, run, args, rest: _decide(ctx, *_state(ctx), "reject", _name(rest))),
)
BY_NAME = {name: verb for verb in VERBS for name in (verb.name, *verb.aliases)}
SUBCOMMANDS = tuple(verb.name for verb in VERBS)
WITH_OPTIONS = {"stats", "suggest"}       # the verbs --threshold goes with (--llm: suggest only)


def _complete(ctx: Context, text: str) -> list[str]:
    parts = text.split()
    if len(parts) <= 1 and not text.endswith(" "):
        return [s for s in SUBCOMMANDS if s.startswith(text.strip())]
    if parts and parts[0] in BY_NAME and BY_NAME[parts[0]].rule_named:
        try:
            _, book = _state(ctx)
        except UserError:
            return []
        prefix = parts[1] if len(parts) > 1 else ""
        return [r.name for r in book.rules if r.name.startswith(prefix)]
    return []


POLICY_HELP = "\n".join([
    "Steering rules that pick model, prompter and strategy per run (policies.yaml of the workspace).",
    "",
    *("    " + verb.help for verb in VERBS if verb.help),
    "    Filters match run attributes: command, goal_type, length (words), workspace, has_question, source;",
    '    a value, a list (any of), or a comparison string (">= 3", "!= proof"). Rules apply in order of',
    "    priority, then specificity (more filter keys later), then file order; later wins."])




def _help(fn: Callable[..., Result]) -> Callable[..., Result]:
    fn.__doc__ = POLICY_HELP      # the verbs' lines come from VERBS
    return fn


@command("/policy", args=f"[{'|'.join(SUBCOMMANDS)}] …", completer=_complete, group="policy", options=OPTIONS,
         steerable=False)
@_help
def policy(ctx: Context, args: Args, run: Run) -> Result:
    sub, _, rest = args.text.partition(" ")
    sub, rest = sub or "list", rest.strip()
    if args.given and sub not in WITH_OPTIONS:
        raise UserError(f"{' and '.join('--' + k for k in sorted(args.given))} only go with /policy stats and suggest")
    if args.llm and sub != "suggest":
        raise UserError("--llm only goes with /policy suggest", hint="/policy suggest --llm")
    verb = BY_NAME.get(sub)
    if verb is None:
        _state(ctx)       # a policies.yaml that does not read is reported first, as for any verb
        raise UserError(f"unknown /policy subcommand {sub!r}", hint="choose one of: " + ", ".join(SUBCOMMANDS))
    return verb.act(ctx, run, args, rest)


@command("/rate", args="1..5", group="policy", steerable=False)
def rate(ctx: Context, arg: str, run: Run) -> Message:
    """Rate the last steered run from 1 (bad) to 5 (excellent); /policy stats uses the rating."""
    try:
        n = int(arg.strip())
    except ValueError:
        raise UserError(f"bad rating {arg.strip()!r}", hint="/rate 1..5") from None
    if not 1 <= n <= 5:
        raise UserError(f"rating {n} is outside 1..5")
    state, book = _state(ctx)
    if not book.rules:
        raise UserError("no run to rate: runs are recorded while the workspace has policy rules",
                        hint="/policy add … first")
    store = _store(ctx)
    last = store.last_run(shell=state.shell)
    if last is None:
        raise UserError("no run to rate yet", hint="run a command first, then /rate N")
    store.add_outcome(last.id, "user", (n - 1) / 4, {"rating": n})
    return Message(f"rated {last.run} ({last.command}) {n}/5", {"run": last.run, "rating": n})
