% Facts and rules for examples/kinship.sym.
person(joshua). person(don). person(louis). person(ann). person(mia). person(tom). person(ben).
male(joshua). male(don). male(louis). male(tom). male(ben).
female(ann). female(mia).

parent_of(joshua, don).
parent_of(joshua, louis).
parent_of(joshua, ann).
parent_of(ann, mia).
parent_of(tom, mia).
parent_of(don, ben).

married(ann, tom).
~married(mia, ben).     % strong negation: known not to hold

father_of(F, C) :- parent_of(F, C), male(F).
mother_of(M, C) :- parent_of(M, C), female(M).
sibling_of(X, Y) :- parent_of(P, X), parent_of(P, Y), X \= Y.
sister_of(X, Y) :- sibling_of(X, Y), female(X).
brother_of(X, Y) :- sibling_of(X, Y), male(X).
uncle_of(U, N) :- brother_of(U, P), parent_of(P, N).
