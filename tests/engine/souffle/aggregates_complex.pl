% aggregates_complex: translated from souffle-lang/souffle tests/evaluation/aggregates_complex/aggregates_complex.dl (UPL-1.0)
'X'(1).
'X'(2).
'X'(10).
'X'(11).
'W'(Vc, Vn) :- 'X'(Vn), aggregate_all(count, ('X'(Vm_T1), Vm_T1 < Vn), Vc).
