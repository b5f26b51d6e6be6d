% inline_functors: translated from souffle-lang/souffle tests/evaluation/inline_functors/inline_functors.dl (UPL-1.0)
a(1).
a(2).
a(3).
a(4).
a(5).
b(1, 2).
b(2, 3).
b(1, -1).
b(10, 4).
b(100, 12).
b(32, 32).
b(4, 2).
b(2, 1).
c(Vx) :- a(Vx), b(VT1, VT2), VT1 =:= (((Vx + Vx) + Vx) + Vx), VT2 =:= (Vx + 1).
c(Vx) :- a(Vy), b(Vx, VT3), VT3 =:= ((Vy - 1) // 3).
