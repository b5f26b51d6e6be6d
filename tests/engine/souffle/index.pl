% index: translated from souffle-lang/souffle tests/evaluation/index/index.dl (UPL-1.0)
'A'(1, 2).
'A'(3, 4).
'A'(5, 6).
'R'(Vx, Vy) :- 'A'(Vx, Vy).
'R'(Vx, Vb) :- 'A'(Vx, Vy), 'R'(VT1, Vb), VT1 =:= (Vy + 1).
