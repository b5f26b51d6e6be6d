% aggregates2: translated from souffle-lang/souffle tests/evaluation/aggregates2/aggregates2.dl (UPL-1.0)
'A'(2, 1).
'A'(3, 1).
'A'(4, 1).
'A'(4, 3).
'A'(5, 1).
'A'(5, 4).
'A'(5, 3).
'A'(6, 1).
'A'(6, 4).
'A'(6, 3).
'A'(7, 1).
'A'(7, 4).
'A'(7, 3).
'A'(8, 1).
'A'(8, 4).
'A'(8, 3).
'A'(8, 7).
'A'(9, 1).
'A'(9, 4).
'A'(9, 8).
'A'(9, 3).
'A'(9, 7).
'A'(10, 1).
'A'(10, 4).
'A'(10, 8).
'A'(10, 3).
'A'(10, 7).
'B'(1, 0).
'B'(2, 1).
'B'(3, 1).
'B'(4, 2).
'B'(5, 3).
'B'(6, 3).
'B'(7, 3).
'B'(8, 4).
'B'(9, 5).
'B'(10, 5).
'C1'(Vn, Vid) :- 'A'(Vn, Vid), 'B'(Vid, VT1), aggregate_all(max(Vs_T3), ('A'(Vn, Vd_T4), 'B'(Vd_T4, Vs_T3)), T2), VT1 = T2.
'C2'(Vn, Vid, VY) :- 'A'(Vn, Vid), 'B'(Vid, VY), aggregate_all(max(Vs_T6), ('A'(Vn, Vd_T7), 'B'(Vd_T7, Vs_T6)), T5), VY = T5.
'C3'(Vn, Vid) :- 'A'(Vn, Vid), 'B'(Vid, VY), aggregate_all(max(Vs_T9), ('A'(Vn, Vd_T10), 'B'(Vd_T10, Vs_T9)), T8), ((2 * VY) + 1) =:= ((2 * T8) + 1).
'C4'(Vn, Vid) :- 'A'(Vn, Vid), 'B'(Vid, VY), aggregate_all(max(Vs_T12), ('A'(Vn, Vd_T13), 'B'(Vd_T13, Vs_T12)), T11), VY = T11.
