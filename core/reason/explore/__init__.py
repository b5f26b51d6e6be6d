"""explore: recursive AND/OR exploration of a topic with a model, cast into a propositional
Horn program whose minimal model collects what the exploration supports (DeepLLM recursors).

`items` reads replies into atoms, `recursor` expands the tree, `refiners` judge the leaves,
`program` holds the clauses, the model and the Prolog / ProbLog / dot exports.
"""

from sym.core.reason.explore.items import atom_of, clean_label, normalise, parse_items
from sym.core.reason.explore.program import ExploredProgram, Node, ProgramClause, to_dot, to_problog, to_prolog
from sym.core.reason.explore.recursor import MAX_DEPTH, Exploration, Prompter, Recursor, explore
from sym.core.reason.explore.refiners import Verdict, memory_search

__all__ = ["MAX_DEPTH", "Exploration", "ExploredProgram", "Node", "ProgramClause", "Prompter", "Recursor", "Verdict",
           "atom_of", "clean_label", "explore", "memory_search", "normalise", "parse_items", "to_dot",
           "to_problog", "to_prolog"]
