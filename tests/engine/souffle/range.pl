% range: translated from souffle-lang/souffle tests/evaluation/range/range.dl (UPL-1.0)
range_(0, 10).
inclusive_inclusive(Vx) :- range_(Vx, _).
inclusive_inclusive(T1) :- inclusive_inclusive(Vx), range_(_, Vy), (Vx + 1) =< Vy, T1 is (Vx + 1).
inclusive_exclusive(Vx) :- range_(Vx, _).
inclusive_exclusive(T2) :- inclusive_exclusive(Vx), range_(_, Vy), (Vx + 1) < Vy, T2 is (Vx + 1).
exclusive_inclusive(T3) :- range_(Vx, _), T3 is (Vx + 1).
exclusive_inclusive(T4) :- exclusive_inclusive(Vx), range_(_, Vy), (Vx + 1) =< Vy, T4 is (Vx + 1).
exclusive_exclusive(T5) :- range_(Vx, _), T5 is (Vx + 1).
exclusive_exclusive(T6) :- exclusive_exclusive(Vx), range_(_, Vy), (Vx + 1) < Vy, T6 is (Vx + 1).
