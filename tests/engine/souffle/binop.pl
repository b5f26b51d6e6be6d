% binop: translated from souffle-lang/souffle tests/evaluation/binop/binop.dl (UPL-1.0)
'N'(0).
'N'(1).
'N'(2).
'N'(3).
'N'(4).
'N'(5).
'S'(Vx, Vy) :- 'N'(Vx), 'N'(Vy).
'A'(Va, Vc) :- 'S'(Va, Vc), Va > Vc.
'B'(Va, Vc) :- 'S'(Va, Vc), Va < Vc.
'C'(Va, Vc) :- 'S'(Va, Vc), Va = Vc.
'D'(Va, Vc) :- 'S'(Va, Vc), Va \= Vc.
'E'(Va, Vc) :- 'S'(Va, Vc), Va =< Vc.
'F'(Va, Vc) :- 'S'(Va, Vc), Va >= Vc.
