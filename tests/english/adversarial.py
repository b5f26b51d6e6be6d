"""Adversarial lists for the constructions of docs/english.md: sentences written as people write them,
before (and apart from) the grammar rule that reads them, each with the logic it must give or None
(refused). Grown, never trimmed: a sentence that was misread stays here with its fix. Tested by
tests/english/test_english_adversarial.py.
"""

from __future__ import annotations

R = None    # refused

# relative clauses on objects, non-restrictive ones on names, "a man who …"
RELATIVES = [
    ("Bob likes cats that purr.", ["likes(bob, X) :- cat(X), purrs(X)."]),
    ("Bob likes dogs which bark.", ["likes(bob, X) :- dog(X), barks(X)."]),
    ("Bob fears dogs that are big.", ["fears(bob, X) :- dog(X), big(X)."]),
    ("Al feeds cats that do not hunt.", ["feeds(al, X) :- cat(X), ~hunts(X)."]),
    ("Bob, who is tall, likes Al.", ["tall(bob).", "likes(bob, al)."]),
    ("Bob, who likes Al, is tall.", ["likes(bob, al).", "tall(bob)."]),
    ("Rex, which is a dog, chases Tom.", ["dog(rex).", "chases(rex, tom)."]),
    ("Bob likes Al, who is tall.", ["likes(bob, al).", "tall(al)."]),
    ("Bob is a man who likes Al.", ["man(bob).", "likes(bob, al)."]),
    ("Rex is a dog that barks.", ["dog(rex).", "barks(rex)."]),
    ("Sue is a woman who is not tall.", ["woman(sue).", "~tall(sue)."]),
    ("Every dog is an animal that barks.", ["animal(X) :- dog(X).", "barks(X) :- dog(X)."]),
    ("Bob likes Al, who is tall and sings.", R),            # who sings: Al or Bob?
    ("Bob likes the cat that purrs.", R),                   # which cat? a restrictive definite
    ("Bob likes cats that Al feeds.", R),                    # an object gap
    ("Bob is not a man who likes Al.", R),                  # which part is denied?
    ("Bob, who Al likes, is tall.", R),
    ("Bob likes cats that purr and dogs.", R),
]

# quantifiers in object position
OBJECT_QUANTIFIERS = [
    ("Every dog chases every cat.", ["chases(X, Y) :- dog(X), cat(Y)."]),
    ("Bob likes every cat.", ["likes(bob, X) :- cat(X)."]),
    ("Bob likes each cat.", ["likes(bob, X) :- cat(X)."]),
    ("Bob likes all cats.", ["likes(bob, X) :- cat(X)."]),
    ("Bob likes no cat.", ["~likes(bob, X) :- cat(X)."]),
    ("Bob likes no cats.", ["~likes(bob, X) :- cat(X)."]),
    ("Bob does not like any cat.", ["~likes(bob, X) :- cat(X)."]),
    ("Bob is afraid of every dog.", ["afraid_of(bob, X) :- dog(X)."]),
    ("Bob is afraid of no dog.", ["~afraid_of(bob, X) :- dog(X)."]),
    ("Bob likes every cat that purrs.", ["likes(bob, X) :- cat(X), purrs(X)."]),
    ("Dogs chase all cats.", ["chases(X, Y) :- dog(X), cat(Y)."]),
    ("Bob and Al like every cat.", ["likes(bob, X) :- cat(X).", "likes(al, X) :- cat(X)."]),
    ("Bob likes every cat and Al is tall.", ["likes(bob, X) :- cat(X).", "tall(al)."]),
    ("Every dog likes every dog.", ["likes(X, Y) :- dog(X), dog(Y)."]),
    ("If Bob is happy then he likes every cat.", R),     # "he" is no variable: Bob is a name
    ("If Bob is happy then Bob likes every cat.", ["likes(bob, X) :- happy(bob), cat(X)."]),
    ("Bob does not like every cat.", R),                  # not all: some cat he does not like
    ("No dog chases every cat.", R),                      # each dog spares some cat: an existential
    ("No dog chases no cat.", R),
    ("Every dog chases a cat.", R),                       # which cat? an existential
    ("Bob likes some cat.", R),
    ("Bob likes a cat.", R),
    ("If Bob likes every cat then Bob is kind.", R),      # a universal condition is no Horn body
    ("Dogs that chase every cat are brave.", R),
    ("Bob likes every.", R),
    ("Bob likes no cat and no dog.", ["~likes(bob, X) :- cat(X).", "~likes(bob, X) :- dog(X)."]),
]

# possessives as relations; 's as "is"
POSSESSIVES = [
    ("Bob's sister is Al.", ["sister_of(al, bob)."]),
    ("Al is Bob's sister.", ["sister_of(al, bob)."]),
    ("Al is not Bob's sister.", ["~sister_of(al, bob)."]),
    ("Bob's sister is tall.", R),                        # some sister of Bob's: an existential (APE: a referent)
    ("Bob's tall.", ["tall(bob)."]),
    ("Bob's not tall.", ["~tall(bob)."]),
    ("Bob's a doctor.", ["doctor(bob)."]),
    ("Bob's afraid of Al.", ["afraid_of(bob, al)."]),
    ("It's tall.", R),
    ("Bob's cat.", R),
    ("Bob's running.", R),                                # the progressive
    ("Bob's sister likes Al.", R),
    ("Al likes Bob's sister.", R),
    ("Al is afraid of Bob's dog.", R),
    ("Who is Bob's sister?", R),                          # a question: see QUESTIONS
    ("Bob's sister's cat is black.", R),
    ("The dog's owner is Bob.", R),                       # a description's possessive
    ("Bob's eaten.", R),                                  # has eaten
    ("Bob's got a cat.", R),
]

# there-sentences and counting
COUNTING = [
    ("There are at most three cats.", [":- aggregate_all(count, cat(X), N), N > 3."]),
    ("Bob has at most two cats.", [":- aggregate_all(count, (has(bob, X), cat(X)), N), N > 2."]),
    ("Bob has no more than two cats.", [":- aggregate_all(count, (has(bob, X), cat(X)), N), N > 2."]),
    ("There is a cat.", R),                               # an existential: nothing to name
    ("There are three cats.", R),
    ("There is a cat that purrs.", R),
    ("Bob has two cats.", R),
    ("Bob has at least three cats.", R),
    ("There are many cats.", R),
    ("There is Bob.", R),
]

# sentences in capitals
CAPITALS = [
    ("BOB IS TALL.", ["tall(bob)."]),
    ("BOB LIKES AL.", ["likes(bob, al)."]),
    ("THE CAT CHASES BOB.", ["chases(cat, bob)."]),
    ("EVERY DOG IS AN ANIMAL.", ["animal(X) :- dog(X)."]),
    ("IF B IS THE SON OF A THEN A IS THE PARENT OF B.", R),    # letters or the article?
    ("BOB IS Tall.", R),                                     # not the whole sentence in capitals
    ("WILL IS TALL.", R),                                    # Will or will?
]

# refused whole classes (with a reason): reports, beliefs, modality, tense, metaphor, gapping,
# anaphoric definites, relational adjectives, sentences about words, object-first order
REFUSED = [
    ("Al is tall, Bob thinks.", R),
    ("Bob believes that Al is tall.", R),
    ("Bob might be tall.", R),
    ("Bob was tall.", R),
    ("Bob likes cats and Al dogs.", R),
    ("The former is happy.", R),
    ("The latter is tall.", R),
    ("Bob is a different man.", R),
    ("Bob is a similar man.", R),
    ("Run is a verb.", R),
    ("Bob is a name.", R),
    ("Al Bob likes.", R),
    ("Cats Bob likes.", R),
    ("Time is money.", R),
    ("Mary is seen by John.", ["sees(john, mary)."]),         # the passive
    ("Mary is not liked by John.", ["~likes(john, mary)."]),
    ("Every man who waits is seen by himself.", ["sees(X, X) :- man(X), waits(X)."]),
    ("All men see him.", R),                                 # him is not the subject
    ("Every dog likes him.", R),
    ("Bob is close by Al.", ["close_by(bob, al)."]),
    ("John gives Bill Mary.", R),                            # to whom, and what? (APE 688)
    ("If X gives Y Z then X hands Y Z.", R),                 # letters are variables (APE 3605)
    ("Bob likes Mary Smith.", ["likes(bob, mary_smith)."]),
    ("Bob is a rock.", ["rock(bob)."]),                       # literal by definition: no metaphor is read
]

# statements: every list above
STATEMENTS = RELATIVES + OBJECT_QUANTIFIERS + POSSESSIVES + COUNTING + CAPITALS + REFUSED

# questions → (kind, query) or None
QUESTIONS = [
    ("Who is not tall?", ("values", "~tall(X)")),
    ("Which cat is not black?", ("values", "~black(X), cat(X)")),
    ("What does Bob not like?", R),
    ("Where is Bob?", ("values", "in(bob, X)")),
    ("Where does Bob live?", ("values", "lives_in(bob, X)")),
    ("Where is the cat?", ("values", "in(cat, X)")),
    # a universal question asks for a proof of a rule (assume a fresh cat, derive that it is black):
    # no goal the reasoner answers says that yet, and "no cat known not black" is no "yes"
    ("Is every cat black?", R),
    ("Are all cats black?", R),
    ("Is each dog an animal?", R),
    ("Where do cats live?", R),
    ("Where is every cat?", R),
    ("Is all cat black?", R),
    ("Is every black?", R),
    ("BOB IS TALL?", R),
    ("IS BOB TALL?", ("truth", "tall(bob)")),
    ("Is Bob's sister tall?", R),
    ("Who is Bob's sister?", ("values", "sister_of(X, bob)")),
]
