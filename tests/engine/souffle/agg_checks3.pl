% agg_checks3: translated from souffle-lang/souffle tests/semantic/agg_checks3/agg_checks3.dl (UPL-1.0)
'R1'(a).
'R1'(b).
'R2'(a).
'R2'(b).
'R3'(VA1, VA2) :- 'R1'(VA1), aggregate_all(count, 'R1'(VA1), VCVAL1), VCVAL1 > 1, aggregate_all(sum(VS_T1), VS_T1 = 1, VA2).
'R4'(VA1, VA2) :- 'R3'(VA1, VA2).
