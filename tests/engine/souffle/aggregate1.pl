% aggregate1: translated from souffle-lang/souffle tests/semantic/aggregate1/aggregate1.dl (UPL-1.0)
'A'(1).
'C'(Vy) :- aggregate_all(sum(Va_T1), 'A'(Va_T1), Vy).
'C'(Vy) :- aggregate_all(sum(Va_T2), 'B'(Va_T2), Vy).
