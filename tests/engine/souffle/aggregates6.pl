% aggregates6: translated from souffle-lang/souffle tests/evaluation/aggregates6/aggregates6.dl (UPL-1.0)
'A'(-2147483648).
'B'(2147483647).
'C'(Vx) :- aggregate_all(max(Vy_T1), 'A'(Vy_T1), Vx).
'D'(Vx) :- aggregate_all(min(Vy_T2), 'B'(Vy_T2), Vx).
