% aggregates_non_materialised: translated from souffle-lang/souffle tests/evaluation/aggregates_non_materialised/aggregates_non_materialised.dl (UPL-1.0)
point(0, 0).
point(1, 1).
point(2, 2).
point(-1, 1).
point(-1, -1).
point(3, -3).
out(0, 0).
out(T3, Vz) :- out(Vr, _), Vr < 30, aggregate_all(count, (point(Vx_T2, Vy_T1), Vx_T2 =< (Vr + 1), Vx_T2 >= ((-Vr) - 1), Vy_T1 =< (Vr + 1), Vy_T1 >= ((-Vr) - 1)), Vz), T3 is (Vr + 1).
