% magic_bindings: translated from souffle-lang/souffle tests/evaluation/magic_bindings/magic_bindings.dl (UPL-1.0)
'BaseOne'(5).
'BaseOne'(4).
'BaseOne'(3).
'BaseOne'(2).
'BaseOne'(1).
'BaseOne'(0).
'BaseTwo'(10).
'BaseTwo'(8).
'BaseTwo'(6).
'BaseTwo'(4).
'BaseTwo'(2).
'BaseTwo'(0).
'Valid'(VX) :- 'BaseOne'(VX), VX >= 0.
'Reduced'(VX) :- 'BaseTwo'(VX), 'Valid'(VY), 'Valid'(VZ), VY =:= (VX + 1), VW is (VX + 3), VZ =:= (VW + 2), (VX - 1) =:= (((-1) + VX) + 0).
'Query' :- 'Reduced'(0).
