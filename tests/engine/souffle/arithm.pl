% arithm: translated from souffle-lang/souffle tests/evaluation/arithm/arithm.dl (UPL-1.0)
is_true(true).
e(T1, '10*2', 20) :- is_true(_), T1 is (10 * 2).
e(T2, '10+2', 12) :- is_true(_), T2 is (10 + 2).
e(T3, '10/2', 5) :- is_true(_), T3 is (10 // 2).
e(T4, '1+10*2', 21) :- is_true(_), T4 is (1 + (10 * 2)).
e(T5, '1+1+10*2', 22) :- is_true(_), T5 is ((1 + 1) + (10 * 2)).
e(T6, '1*3+1+10*2', 24) :- is_true(_), T6 is (((1 * 3) + 1) + (10 * 2)).
e(T7, '1+20/2/5', 3) :- is_true(_), T7 is (1 + ((20 // 2) // 5)).
e(T8, '3*40/2/5', 12) :- is_true(_), T8 is (((3 * 40) // 2) // 5).
e(T9, '20/2/5+1', 3) :- is_true(_), T9 is (((20 // 2) // 5) + 1).
e(T10, '-20', -20) :- is_true(_), T10 is ((-2) * 10).
e(-2, '-2', -2) :- is_true(_).
e(2, '--2', 2) :- is_true(_).
e(T11, '2^2^3', 256) :- is_true(_), T11 is (2 ^ (2 ^ 3)).
e(T12, '10^2', 100) :- is_true(_), T12 is (10 ^ 2).
e(T13, '10%3', 1) :- is_true(_), T13 is (10 rem 3).
e(T14, '2^4%13', 3) :- is_true(_), T14 is ((2 ^ 4) rem 13).
f(Vx, Vt, Vy) :- e(Vx, Vt, Vy), Vx \= Vy.
