% independent_aggregate2: translated from souffle-lang/souffle tests/semantic/independent_aggregate2/independent_aggregate2.dl (UPL-1.0)
'R1'(1, 0, 3).
'R1'(1, 2, 3).
'R1'(1, 3, 3).
'R1'(2, 1, 1).
'R1'(2, 1, 6).
'R1'(2, 2, 6).
'R1'(3, 3, 4).
'R1'(4, 2, 3).
'R1'(4, 3, 5).
'R3'(1, 0, 3).
'R3'(1, 2, 3).
'R3'(1, 3, 3).
'R3'(2, 1, 1).
'R3'(2, 1, 6).
'R3'(2, 2, 6).
'R3'(3, 3, 4).
'R3'(4, 2, 3).
'R3'(4, 3, 5).
'R2'(Vi, Vj, Vv) :- 'R1'(Vi, Vj, _), aggregate_all(count, ('R1'(Vx_T2, Vj, Vh_T1), Vi < Vx_T2, Vh_T1 > 2), Vv).
'R4'(Vi, Vj, Vv) :- 'R3'(Vi, Vj, _), aggregate_all(count, ('R3'(Vi, Vy_T3, Vh_T4), Vj < Vy_T3, Vh_T4 > 2), Vv).
