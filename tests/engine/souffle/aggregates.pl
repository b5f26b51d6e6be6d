% aggregates: translated from souffle-lang/souffle tests/evaluation/aggregates/aggregates.dl (UPL-1.0)
a('A', 3).
a('A', 4).
a('A', 5).
a('A', 6).
a('B', 2).
a('B', 3).
a('B', 4).
a('D', 4).
res(min, VY) :- aggregate_all(min(VZ_T1), a(_, VZ_T1), VY).
res(minA, VY) :- aggregate_all(min(VZ_T2), a('A', VZ_T2), VY).
res(minB, VY) :- aggregate_all(min(VZ_T3), a('B', VZ_T3), VY).
res(minC, VY) :- aggregate_all(min(VZ_T4), a('C', VZ_T4), VY).
res(minC2, VY) :- aggregate_all(min(VZ_T5), a('C', VZ_T5), VY).
res(minAB, VY) :- aggregate_all(min(VZ_T7), (a(VA_T6, VZ_T7), a(VB_T8, VZ_T7), VA_T6 \= VB_T8), VY).
res('minAB+', VY) :- aggregate_all(min((VZ_T11 + VY_T9)), (a(VA_T12, VZ_T11), a(VB_T10, VY_T9), VA_T12 \= VB_T10), VY).
res(max, VY) :- aggregate_all(max(VZ_T13), a(_, VZ_T13), VY).
res(maxA, VY) :- aggregate_all(max(VZ_T14), a('A', VZ_T14), VY).
res(maxB, VY) :- aggregate_all(max(VZ_T15), a('B', VZ_T15), VY).
res(maxC, VY) :- aggregate_all(max(VZ_T16), a('C', VZ_T16), VY).
res(maxC2, VY) :- aggregate_all(max(VZ_T17), a('C', VZ_T17), VY).
res(maxAB, VY) :- aggregate_all(max(VZ_T19), (a(VA_T18, VZ_T19), a(VB_T20, VZ_T19), VA_T18 \= VB_T20), VY).
res('maxAB+', VY) :- aggregate_all(max((VZ_T23 + VY_T21)), (a(VA_T24, VZ_T23), a(VB_T22, VY_T21), VA_T24 \= VB_T22), VY).
res(count, VY) :- aggregate_all(count, a(_, _), VY).
res(countA, VY) :- aggregate_all(count, a('A', _), VY).
res(countB, VY) :- aggregate_all(count, a('B', _), VY).
res(countC, VY) :- aggregate_all(count, a('C', _), VY).
res(countNotA, VY) :- aggregate_all(count, (a(VX_T25, _), VX_T25 \= 'A'), VY).
res(countNotB, VY) :- aggregate_all(count, (a(VX_T26, _), VX_T26 \= 'B'), VY).
res1(VX, VY) :- a(VX, _), aggregate_all(min(VZ_T27), a(VX, VZ_T27), VY).
res2(VX, VY, VW) :- a(VX, _), aggregate_all(min(VZ_T28), a(VX, VZ_T28), VY), aggregate_all(max(VZ_T29), a(VX, VZ_T29), VW).
res3(VX, VY) :- a(VX, _), aggregate_all(min(VZ_T30), a(VX, VZ_T30), VY), aggregate_all(max(VZ_T32), a(VX, VZ_T32), T31), VY = T31.
