"""A program's declarations as Z3 objects: sorts, constants, functions and variables.

`declare` builds the `Env` every expression of the program is then built in (core/reason/pot/build.py);
an undeclared or twice-declared name is a BuildError naming its JSON path.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sym.core.errors import UserError
from sym.core.reason.pot.schema import BUILTIN_SORTS, Program, Variable

if TYPE_CHECKING:
    import z3  # z3 ships no type information: to mypy its classes are Any


class BuildError(UserError):
    """An expression that does not fit the declarations."""


@dataclass
class Env:
    """What a program declared, as Z3 objects in one Z3 context."""

    ctx: z3.Context
    sorts: dict[str, z3.SortRef] = field(default_factory=dict)          # sort name -> z3 sort
    constants: dict[str, z3.ExprRef] = field(default_factory=dict)      # name -> z3 term (declared constants, enum values)
    members: dict[str, list[str]] = field(default_factory=dict)         # sort name (z3) -> constant names, for Sum and witnesses
    # name -> (FuncDecl, or the const of a 0-ary function; domain sorts; range sort)
    functions: dict[str, tuple[z3.FuncDeclRef | z3.ExprRef, list[z3.SortRef], z3.SortRef]] = field(default_factory=dict)
    variables: dict[str, z3.SortRef] = field(default_factory=dict)      # declared variable name -> z3 sort
    expanded: int = 0                                   # Sum terms built so far (capped at build.MAX_SUM_TERMS)
    _fresh: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def symbol_taken(self, name: str) -> bool:
        return name in self.constants or name in self.functions

    def bound_const(self, name: str, sort: z3.SortRef) -> z3.ExprRef:
        """A Z3 constant for a bound variable that cannot capture a declared symbol."""
        import z3

        label = name if not self.symbol_taken(name) else f"{name}!{next(self._fresh)}"
        return z3.Const(label, sort)


def sort_name(sort: z3.SortRef) -> str:
    return str(sort.name())


def is_numeric(sort: z3.SortRef) -> bool:
    import z3

    return sort.kind() in (z3.Z3_INT_SORT, z3.Z3_REAL_SORT)


def is_bool(sort: z3.SortRef) -> bool:
    import z3

    return bool(sort.kind() == z3.Z3_BOOL_SORT)


def declare(program: Program, z3_context: z3.Context | None = None) -> Env:
    """Sorts, constants, functions and variables of a program, as Z3 objects."""
    import z3

    ctx = z3_context or z3.Context()
    env = Env(ctx)
    builtin = {"Bool": z3.BoolSort(ctx), "Int": z3.IntSort(ctx), "Real": z3.RealSort(ctx)}
    for alias, base in BUILTIN_SORTS.items():
        env.sorts[alias] = builtin[base]
    for i, s in enumerate(program.sorts):
        where = f"sorts[{i}]"
        if s.name in BUILTIN_SORTS:
            if BUILTIN_SORTS[s.name] != {"IntSort": "Int", "RealSort": "Real", "BoolSort": "Bool"}.get(s.type):
                raise BuildError(f"{where}: {s.name} is a built-in sort and cannot be a {s.type}")
            continue
        if s.name in env.sorts and s.name not in BUILTIN_SORTS:
            raise BuildError(f"{where}: sort {s.name} is declared twice")
        if s.type == "DeclareSort":
            env.sorts[s.name] = z3.DeclareSort(s.name, ctx)
        elif s.type == "EnumSort":
            if not s.values:
                raise BuildError(f"{where}: an EnumSort needs `values`")
            if len(set(s.values)) != len(s.values):
                raise BuildError(f"{where}: an EnumSort lists a value twice")
            sort, values = z3.EnumSort(s.name, s.values, ctx=ctx)
            env.sorts[s.name] = sort
            for name, term in zip(s.values, values):
                _add_constant(env, name, term, f"{where}.values")
        else:   # a named alias of a built-in sort: {"name": "Cost", "type": "IntSort"}
            env.sorts[s.name] = builtin[s.type.removesuffix("Sort")]
        if s.type != "EnumSort" and s.values:
            raise BuildError(f"{where}: only an EnumSort has `values`")
    for group, c in program.constants.items():
        sort = find_sort(env, c.sort, f"constants.{group}.sort")
        for name in c.members:
            _add_constant(env, name, z3.Const(name, sort), f"constants.{group}")
    for i, f in enumerate(program.functions):
        where = f"functions[{i}]"
        if env.symbol_taken(f.name):
            raise BuildError(f"{where}: {f.name} is declared twice")
        domain = [find_sort(env, d, f"{where}.domain[{j}]") for j, d in enumerate(f.domain)]
        rng = find_sort(env, f.range, f"{where}.range")
        decl = z3.Function(f.name, *domain, rng) if domain else z3.Const(f.name, rng)
        env.functions[f.name] = (decl, domain, rng)
    for i, v in enumerate(program.variables):
        env.variables[v.name] = find_sort(env, v.sort, f"variables[{i}].sort")
    return env


def _add_constant(env: Env, name: str, term: z3.ExprRef, where: str) -> None:
    if env.symbol_taken(name):
        raise BuildError(f"{where}: {name} is declared twice")
    env.constants[name] = term
    env.members.setdefault(sort_name(term.sort()), []).append(name)


def find_sort(env: Env, name: str, where: str) -> z3.SortRef:
    try:
        return env.sorts[name]
    except KeyError:
        known = ", ".join(sorted(n for n in env.sorts if not n.endswith("Sort"))) or "none"
        raise BuildError(f"{where}: undefined sort {name!r}", hint=f"declared sorts: {known}") from None


def variable_sorts(env: Env, variables: Iterable[Variable], where: str) -> dict[str, z3.SortRef]:
    return {v.name: find_sort(env, v.sort, f"{where}[{i}].sort") for i, v in enumerate(variables)}
