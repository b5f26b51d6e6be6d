% magic_turing1: translated from souffle-lang/souffle tests/evaluation/magic_turing1/magic_turing1.dl (UPL-1.0)
'Tape'(Vposition, VnewSymbol, T1) :- 'Tape'(Vposition, VoldSymbol, Vstep), 'Configuration'(Vposition, VcurrentState, Vstep), 'Transition'(VcurrentState, _, VoldSymbol, VnewSymbol, _), T1 is (Vstep + 1).
'Tape'(Vposition, Vsymbol, T2) :- 'Tape'(Vposition, Vsymbol, Vstep), 'Configuration'(VwritePosition, _, Vstep), Vposition \= VwritePosition, T2 is (Vstep + 1).
'Tape'(Vposition, b, T4) :- 'Configuration'(Vposition, _, VT3), 'TapeLimits'(Vstep, Vleft, _), Vposition < Vleft, VT3 =:= (Vstep + 1), T4 is (Vstep + 1).
'Tape'(Vposition, b, T6) :- 'Configuration'(Vposition, _, VT5), 'TapeLimits'(Vstep, _, Vright), Vposition > Vright, VT5 =:= (Vstep + 1), T6 is (Vstep + 1).
'Configuration'(T7, VnextState, T8) :- 'Tape'(Vposition, VoldSymbol, Vstep), 'Configuration'(Vposition, VcurrentState, Vstep), 'Transition'(VcurrentState, VnextState, VoldSymbol, _, 'L'), T7 is (Vposition - 1), T8 is (Vstep + 1).
'Configuration'(T9, VnextState, T10) :- 'Tape'(Vposition, VoldSymbol, Vstep), 'Configuration'(Vposition, VcurrentState, Vstep), 'Transition'(VcurrentState, VnextState, VoldSymbol, _, 'R'), T9 is (Vposition + 1), T10 is (Vstep + 1).
'TapeLimits'(T12, Vleft, Vright) :- 'TapeLimits'(Vstep, Vleft, Vright), 'Configuration'(Vposition, _, VT11), Vleft =< Vposition, Vposition =< Vright, VT11 =:= (Vstep + 1), T12 is (Vstep + 1).
'TapeLimits'(T14, Vposition, Vright) :- 'TapeLimits'(Vstep, Vleft, Vright), 'Configuration'(Vposition, _, VT13), Vposition < Vleft, VT13 =:= (Vstep + 1), T14 is (Vstep + 1).
'TapeLimits'(T16, Vleft, Vposition) :- 'TapeLimits'(Vstep, Vleft, Vright), 'Configuration'(Vposition, _, VT15), Vright < Vposition, VT15 =:= (Vstep + 1), T16 is (Vstep + 1).
'Transition'('S0', 'S0', x, y, 'R').
'Transition'('S0', 'S1', y, x, 'L').
'Transition'('S1', 'S1', y, x, 'L').
'Tape'(0, x, 0).
'Tape'(1, x, 0).
'Tape'(2, y, 0).
'TapeLimits'(0, 0, 2).
'Configuration'(0, 'S0', 0).
