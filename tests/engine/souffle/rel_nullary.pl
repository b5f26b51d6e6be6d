% rel_nullary: translated from souffle-lang/souffle tests/semantic/rel_nullary/rel_nullary.dl (UPL-1.0)
'Def'.
'Def'.
'B'(1).
'A' :- 'B'(_).
'C' :- 'B'(2).
'E'.
'F'.
'H'(1) :- 'F'.
'H'(2) :- 'G'.
'H'(3) :- 'G', 'F'.
'H'(4) :- \+ 'G'.
'H'(5) :- 'F', \+ 'G'.
'I'(1).
'I'(2).
'J'(10).
'J'(20).
'J'(30) :- \+ 'I2'(_).
'K'.
'L'(T1) :- 'I'(Vx), 'K', 'J'(Vy), T1 is (Vx + Vy).
'M' :- 'M'.
'N'.
'N' :- 'N'.
'P'.
'P' :- 'Q'.
'Q' :- 'P'.
'R'(10).
'R'(Vx) :- 'S', 'R'(Vx).
'S' :- 'R'(_).
