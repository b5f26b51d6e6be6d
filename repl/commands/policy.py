"""Policy commands: steering rules (/policy …) and rating the last run (/rate).

The work is in core.reason.policy; these functions parse arguments and wrap the answers
in results. Nothing here changes a rule without the user asking for exactly that change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from sym.core.errors import UserError
from sym.core.run import Run
from sym.repl.arguments import Args, Option
from sym.repl.context import Context
from sym.repl.registry import command
from sym.repl.render import to_text
from sym.repl.results import Message, Result

SUBCOMMANDS = ("list", "show", "add", "rm", "enable", "disable", "classify", "classifier", "stats", "suggest", "accept",
               "reject")
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
    from sym.repl.steering import book, policy_state

    return policy_state(ctx), book(ctx)


def _store(ctx: Context):
    from sym.repl.steering import store

    return store(ctx)


OPTIONS = (
    Option("--threshold", float, metavar="X", low=0.0, high=1.0, default=DEFAULT_THRESHOLD,
           help=f"stats, suggest: the score a run needs to count as a success (default {DEFAULT_THRESHOLD})"),
    Option("--llm", bool, help="suggest: let the model propose rewrites too"),
)


def _complete(ctx: Context, text: str) -> list[str]:
    parts = text.split()
    if len(parts) <= 1 and not text.endswith(" "):
        return [s for s in SUBCOMMANDS if s.startswith(text.strip())]
    if parts and parts[0] in ("show", "rm", "enable", "disable"):
        try:
            _, book = _state(ctx)
        except UserError:
            return []
        prefix = parts[1] if len(parts) > 1 else ""
        return [r.name for r in book.rules if r.name.startswith(prefix)]
    return []


@command("/policy", args="[list|show|add|rm|enable|disable|classify|classifier|stats|suggest|accept|reject] …",
         completer=_complete, group="policy", options=OPTIONS, steerable=False)
def policy(ctx: Context, args: Args, run: Run) -> Result:
    """Steering rules that pick model, prompter and strategy per run (policies.yaml of the workspace).

    /policy list                      the rules, in file order
    /policy add {name: cheap, target: llm, filter: {command: /ask, length: "< 20"}, attributes: {temperature: 0}}
    /policy rm|enable|disable NAME    remove or switch a rule; /policy show NAME prints it with its stats
    /policy classify TYPE KEYWORD…    inputs with a keyword get goal_type TYPE (no arguments: list types)
    /policy classifier llm|keywords   let the model type inputs your keywords do not (one call per run)
    /policy stats [--threshold 0.6]   per rule and attribute combination: runs, mean, min/max, std, success
    /policy suggest [--llm]           propose edits of under-performing rules; /policy accept|reject ID
    Filters match run attributes: command, goal_type, length (words), workspace, has_question, source;
    a value, a list (any of), or a comparison string (">= 3", "!= proof"). Rules apply in order of
    priority, then specificity (more filter keys later), then file order; later wins."""
    sub, _, rest = args.text.partition(" ")
    sub, rest = sub or "list", rest.strip()
    if args.given and sub not in ("stats", "suggest"):
        raise UserError(f"{' and '.join('--' + k for k in sorted(args.given))} only go with /policy stats and suggest")
    if args.llm and sub != "suggest":
        raise UserError("--llm only goes with /policy suggest", hint="/policy suggest --llm")
    state, book = _state(ctx)
    if sub == "list":
        return _listing(book)
    if sub == "add":
        return _add(book, rest)
    if sub in ("rm", "remove"):
        rule = book.remove(_name(rest))
        return Message(f"removed rule {rule.name!r}", {"removed": rule.name})
    if sub in ("enable", "disable"):
        from sym.core.reason.policy.rules import rule_from_data

        rule = book.get(_name(rest))
        book.add(rule_from_data({**rule.to_yaml_dict(), "enabled": sub == "enable"}), replace=True)
        return Message(f"rule {rule.name!r} {sub}d", {"rule": rule.name, "enabled": sub == "enable"})
    if sub == "show":
        return _show(ctx, state, book, _name(rest))
    if sub == "classify":
        return _classify(book, rest)
    if sub == "classifier":
        if rest not in ("llm", "keywords"):
            raise UserError("/policy classifier takes llm or keywords",
                            hint="llm: the model types each input (one call per steered run)")
        book.set_classifier(rest)
        return Message(f"goal types now come from {'the model' if rest == 'llm' else 'keywords'}",
                       {"classifier": rest})
    if sub == "stats":
        return _stats(ctx, state, book, rest.split(), args.threshold)
    if sub == "suggest":
        return _suggest(ctx, run, state, book, rest.split(), args.threshold, args.llm)
    if sub in ("accept", "reject"):
        return _decide(ctx, state, book, sub, _name(rest))
    raise UserError(f"unknown /policy subcommand {sub!r}", hint="choose one of: " + ", ".join(SUBCOMMANDS))


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
    from sym.core.reason.policy.loader import load_yaml
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

    from sym.core.reason.policy.stats import rule_stats

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
    from sym.core.reason.policy.stats import combination_stats, rule_stats

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


@command("/rate", args="1..5", group="policy", steerable=False)
def rate(ctx: Context, arg: str) -> Message:
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
