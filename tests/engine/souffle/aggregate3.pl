% aggregate3: translated from souffle-lang/souffle tests/semantic/aggregate3/aggregate3.dl (UPL-1.0)
a(1).
a(2).
b(Vy0) :- a(Vy0), aggregate_all(count, a(_), T1), Vy0 < T1.
d(1, 1).
e(1, 1).
f(1).
c(Vx, Vy) :- d(Vx, Vy), e(Vx, Vz), f(Vz), aggregate_all(count, d(Vx, _), T2), 1 = T2.
