"""The English bridge: a grammar of controlled English → logic clauses, questions → goals,
with no language model. A sentence becomes logic only when the grammar gives it exactly one
meaning; anything else is None (the reasoner asks a model, or names the sentence).

Rooms: lexicon (tokens, morphology), grammar.lark + parse (readings), semantics + objects + scope (readings →
clauses), statements (translate), questions (goals), state (containers and operations),
sentences (splitting), render (clauses → English), measures and counts (numbers), surface (what adds nothing).
"""

from sym.core.reason.swm.english.lexicon import third_person
from sym.core.reason.swm.english.questions import Goal, question_goal, relation_answer
from sym.core.reason.swm.english.render import render_clause, template_for
from sym.core.reason.swm.english.sentences import split_sentences
from sym.core.reason.swm.english.state import Update
from sym.core.reason.swm.english.statements import Translation, translate, why_not

__all__ = ["Goal", "Translation", "Update", "question_goal", "relation_answer", "render_clause",
           "split_sentences", "template_for", "third_person", "translate", "why_not"]
