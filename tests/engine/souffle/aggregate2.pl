% aggregate2: translated from souffle-lang/souffle tests/semantic/aggregate2/aggregate2.dl (UPL-1.0)
'A'.
'C'(Vy) :- aggregate_all(count, 'A', Vy).
'C'(Vy) :- aggregate_all(count, 'B', Vy).
