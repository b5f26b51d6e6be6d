% magic_infbinding: translated from souffle-lang/souffle tests/evaluation/magic_infbinding/magic_infbinding.dl (UPL-1.0)
seed(5).
valid(5).
valid(4).
valid(3).
valid(2).
valid(1).
valid(0).
gen(VX) :- seed(VX).
gen(VX) :- gen(VT1), valid(VX), VT1 =:= (VX + 1).
query :- gen(0).
