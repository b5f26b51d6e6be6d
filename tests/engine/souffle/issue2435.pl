% issue2435: translated from souffle-lang/souffle tests/evaluation/issue2435/issue2435.dl (UPL-1.0)
fib(1, 1).
fib(2, 1).
fib(Vx, Vresult) :- fib(Vt1, Vr1), fib(Vt2, Vr2), Vx is (Vt1 + 1), Vx =:= (Vt2 + 2), Vtemp = Vr2, Vresult is (Vr1 + Vtemp), Vtemp =:= (Vresult - Vr1), Vx =< 10.
