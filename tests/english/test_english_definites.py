"""Definites in rules (docs/english.md, "Definites in rules"; issue 48, part 1): inside a conditional,
a generic or an every-sentence whose variables a noun introduced, *the N* repeats the earlier *a N* /
*every N* with the same noun; a *the M* of another noun where one of the rule's things could stand
(any but its own clause's subject, which would be *itself*) is refused with the reason — unless memory
or an earlier sentence of the /tell holds the M already; one where none could (`Cats chase the dog.`)
is its constant. Built from invented words, so no rule can hang on a word; each reading passes the
round trip."""

from __future__ import annotations

import random

import pytest

from sym.core.logic.terms import Var
from sym.core.reason.swm.english import translate, why_not
from sym.core.reason.swm.english.statements import misread
from sym.repl.render import to_text
from tests.english_lexicon import Lexicon, X, atom, normal_clauses, rule

Y = Var("Y")
SEEDS = range(40)


def _read(rng: random.Random) -> tuple[str, list[str]]:
    """A rule whose *the N* repeats its *a N* / *every N*, and its logic."""
    lx = Lexicon(rng)
    n, m, a, b, v, w = lx.noun(), lx.noun(), lx.adj(), lx.adj(), lx.verb(), lx.verb()
    form = rng.randrange(6)
    if form == 0:
        return (f"If {n.article} {n.sg} is {a} then the {n.sg} is {b}.", [rule(atom(b, X), atom(n.sg, X), atom(a, X))])
    if form == 1:
        return (f"If {n.article} {n.sg} {v.s} {m.article} {m.sg} then the {n.sg} {w.s} the {m.sg}.",
                [rule(atom(w.s, X, Y), atom(n.sg, X), atom(m.sg, Y), atom(v.s, X, Y))])
    if form == 2:
        return (f"If {n.article} {n.sg} {v.s} {m.article} {m.sg} then the {m.sg} is {b}.",
                [rule(atom(b, Y), atom(n.sg, X), atom(m.sg, Y), atom(v.s, X, Y))])
    if form == 3:
        return (f"Every {n.sg} that {v.s} {m.article} {m.sg} {w.s} the {m.sg}.",
                [rule(atom(w.s, X, Y), atom(n.sg, X), atom(v.s, X, Y), atom(m.sg, Y))])
    if form == 4:
        return (f"{n.pl.capitalize()} that {v.base} {m.article} {m.sg} {w.base} the {m.sg}.",
                [rule(atom(w.s, X, Y), atom(n.sg, X), atom(v.s, X, Y), atom(m.sg, Y))])
    return (f"No {n.sg} that {v.s} {m.article} {m.sg} {w.s} the {m.sg}.",
            [rule(atom(w.s, X, Y, neg=True), atom(n.sg, X), atom(v.s, X, Y), atom(m.sg, Y))])


def _refused(rng: random.Random) -> tuple[str, str]:
    """A rule with a *the M* that repeats none of its nouns, where one of the rule's things other than
    its own clause's subject could stand, and the description M."""
    lx = Lexicon(rng)
    n, m, o, a, b, v, w = lx.noun(), lx.noun(), lx.noun(), lx.adj(), lx.adj(), lx.verb(), lx.verb()
    form = rng.randrange(6)
    if form == 0:       # "If a cat is hungry then the animal eats."
        return f"If {n.article} {n.sg} is {a} then the {m.sg} {w.s}.", m.sg
    if form == 1:
        return f"If {n.article} {n.sg} {v.s} {m.article} {m.sg} then the {o.sg} is {b}.", o.sg
    if form == 2:       # the O: the M?
        return f"If {n.article} {n.sg} {v.s} {m.article} {m.sg} then the {n.sg} {w.s} the {o.sg}.", o.sg
    if form == 3:       # "Every farmer who owns a donkey beats the animal."
        return f"Every {n.sg} that {v.s} {m.article} {m.sg} {w.s} the {o.sg}.", o.sg
    if form == 4:       # a second condition: the M may be the N
        return f"If {n.article} {n.sg} is {a} and the {m.sg} is {b} then the {n.sg} {w.s}.", m.sg
    return f"If the {m.sg} {v.s} {n.article} {n.sg} then the {o.sg} is {b}.", o.sg


def _constant(rng: random.Random) -> tuple[str, list[str]]:
    """A rule whose *the M* can be none of its things (only its own clause's subject, which would be
    *itself*), or repeats a description the rule read before: the constant M."""
    lx = Lexicon(rng)
    n, m, a, b, v, w = lx.noun(), lx.noun(), lx.adj(), lx.adj(), lx.verb(), lx.verb()
    form = rng.randrange(5)
    if form == 0:       # "Cats chase the dog."
        return f"{n.pl.capitalize()} {w.base} the {m.sg}.", [rule(atom(w.s, X, m.sg), atom(n.sg, X))]
    if form == 1:
        return (f"Every {n.sg} that {v.s} the {m.sg} is {b}.",
                [rule(atom(b, X), atom(n.sg, X), atom(v.s, X, m.sg))])
    if form == 2:
        return (f"Every {n.sg} is {a} and {w.s} the {m.sg}.",
                [rule(atom(a, X), atom(n.sg, X)), rule(atom(w.s, X, m.sg), atom(n.sg, X))])
    if form == 3:
        return (f"If {n.article} {n.sg} is {a} then the {n.sg} {w.s} the {m.sg}.",
                [rule(atom(w.s, X, m.sg), atom(n.sg, X), atom(a, X))])
    return (f"If the {m.sg} {v.s} {n.article} {n.sg} then the {m.sg} is {b}.",
            [rule(atom(b, m.sg), atom(n.sg, X), atom(v.s, m.sg, X))])


@pytest.mark.parametrize("seed", SEEDS)
def test_the_n_repeats_the_rules_own_n(seed):
    _reads_as(*_read(random.Random(f"read:{seed}")))


def _reads_as(sentence: str, expected: list) -> None:
    """`sentence` reads to `expected`, and its paraphrase parses back to the same clauses."""
    found = translate(sentence)
    assert found is not None, f"{sentence!r} refused: {why_not(sentence)}"
    assert normal_clauses(found.clauses) == normal_clauses(expected), sentence
    assert found.paraphrase and misread(tuple(found.clauses), found.written) is None


@pytest.mark.parametrize("seed", SEEDS)
def test_a_the_m_that_repeats_no_noun_of_the_rule_is_refused_with_the_reason(seed):
    sentence, described = _refused(random.Random(f"refused:{seed}"))
    assert translate(sentence) is None, f"{sentence!r} gave {translate(sentence).clauses}"
    why = why_not(sentence)
    assert f"'the {described}'" in why and "repeats no noun of the rule" in why, why


@pytest.mark.parametrize("seed", SEEDS)
def test_a_the_m_that_can_be_no_thing_of_the_rule_is_its_constant(seed):
    _reads_as(*_constant(random.Random(f"constant:{seed}")))


@pytest.mark.parametrize("seed", SEEDS)
def test_a_description_known_before_is_the_thing_it_names(seed):
    sentence, described = _refused(random.Random(f"refused:{seed}"))
    found = translate(sentence, known=lambda const: const == described)
    assert found is not None, f"{sentence!r}: {why_not(sentence, lambda c: c == described)}"
    assert any(described in c for c in found.clauses) and misread(tuple(found.clauses), found.written) is None
    assert translate(sentence, known=lambda const: False) is None        # another description is no help


@pytest.mark.parametrize("seed", range(12))
def test_a_the_n_before_its_a_n_in_a_condition_last_is_refused(seed):
    lx = Lexicon(random.Random(f"cataphora:{seed}"))
    n, a, w = lx.noun(), lx.adj(), lx.verb()
    word = random.Random(seed).choice(["if", "whenever"])
    sentence = f"The {n.sg} {w.s} {word} {n.article} {n.sg} is {a}."
    assert translate(sentence) is None
    assert "put the condition first" in why_not(sentence)
    first = translate(f"If {n.article} {n.sg} is {a} then the {n.sg} {w.s}.")
    assert first is not None and normal_clauses(first.clauses) == normal_clauses(
        [rule(atom(w.s, X), atom(n.sg, X), atom(a, X))])


@pytest.mark.parametrize("seed", range(12))
def test_rules_of_something_or_of_no_variable_keep_their_descriptions_as_constants(seed):
    """ProofWriter's rules: *something* has no noun for *the M* to be another name of."""
    lx = Lexicon(random.Random(f"something:{seed}"))
    m, a, b, v = lx.noun(), lx.adj(), lx.adj(), lx.verb()
    found = translate(f"If something {v.s} the {m.sg} then the {m.sg} is {b}.")
    assert found is not None and normal_clauses(found.clauses) == normal_clauses(
        [rule(atom(b, m.sg), atom(v.s, X, m.sg))])
    found = translate(f"If the {m.sg} is {a} then the {m.sg} is {b}.")
    assert found is not None and found.clauses == [rule(atom(b, m.sg), atom(a, m.sg))]


def test_every_n_that_likes_the_n_is_not_read_as_liking_itself():
    assert translate("Every cat that is hungry likes the cat.") is None
    assert "itself" in why_not("Every cat that is hungry likes the cat.")


def test_a_tell_reads_a_rule_of_a_description_it_told_before(sym):
    """An earlier sentence of the /tell, or memory, makes *the box* a known thing: the rule names it."""
    from tests.english.test_trust_answers import no_model

    no_model(sym)
    refused = sym("/tell If a cat is hungry then the box is open.")
    assert not refused.ok and "'the box' repeats no noun of the rule" in to_text(refused)
    assert sym("/tell The box is red. If a cat is hungry then the box is open.").ok
    assert sym("/tell Tom is a cat. Tom is hungry.").ok and sym("/ask Is the box open?").outcome.answer == "true"
    assert sym("/tell If a dog barks then the box shakes.").ok       # memory holds the box now
    assert not sym("/tell If a dog barks then the man wakes.").ok
