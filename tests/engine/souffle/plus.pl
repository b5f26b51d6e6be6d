% plus: translated from souffle-lang/souffle tests/evaluation/plus/plus.dl (UPL-1.0)
'R'(1, 2).
'R'(2, 3).
'R'(3, 5).
'A'(Va, Vb, T1) :- 'R'(Va, Vb), T1 is (Va + Vb).
