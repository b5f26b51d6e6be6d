% inline_unification: translated from souffle-lang/souffle tests/evaluation/inline_unification/inline_unification.dl (UPL-1.0)
a(0, 0).
a(Vx, Vy) :- b(Vx), b(Vy), Vx \= Vy.
b(0).
b(T1) :- b(Vx), Vx < 10, T1 is (Vx + 1).
c(Vx, Vy) :- a(Vy, Vx), (Vx rem 2) =\= 0, Vx =:= (Vy - 2).
