% progmin2: translated from souffle-lang/souffle tests/semantic/progmin2/progmin2.dl (UPL-1.0)
'F'(0, 0).
'F'(0, 0).
'F'(1, 2).
'A'(Va) :- 'F'(Va, _).
'B'(Vx) :- 'F'(Vx, Vy).
'C'(Va) :- 'F'(_, Va).
'D'(Vx) :- 'F'(Vx, Vx).
'E'(Vy) :- 'F'(Vy, Vy).
'D'(Vx) :- 'A'(Vx), 'A'(Vx), 'A'(Vx), 'B'(Vx).
'D'(Vx) :- 'B'(Vx), 'A'(Vx).
'D'(Vx) :- 'D'(Vx).
'D'(Vx) :- 'D'(Vx), 'A'(Vx), Vx \= 1.
'D'(Vresult) :- 'F'(Vresult, Vy), 'F'(Vresult, Vx), 'E'(Vy), Vx \= 3, Vx < Vy, \+ 'E'(Vx), Vy > 3, \+ 'E'(Vx), Vx < Vy.
'D'(Vx) :- 'F'(Vx, Valpha), 'F'(Vx, Vbeta), 'E'(Vgamma), 'E'(Vbeta), Valpha \= 3, \+ 'E'(Valpha), Vbeta > 3, Valpha < Vbeta, Vgamma = Vbeta.
'D'(Vresult) :- 'F'(Vresult, Vy), 'F'(Vresult, Vx), 'E'(Vy), 'E'(Vx), Vx \= 3, Vx < Vy, \+ 'E'(Vy), Vy > 3, Vx < Vy.
'G'(Vx) :- 'A'(Vx).
'G'(Vx) :- 'B'(Vx).
'G'(Vx) :- 'C'(Vx).
'G'(Vx) :- 'D'(Vx).
'G'(Vx) :- 'E'(Vx).
