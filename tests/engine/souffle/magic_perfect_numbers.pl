% magic_perfect_numbers: translated from souffle-lang/souffle tests/evaluation/magic_perfect_numbers/magic_perfect_numbers.dl (UPL-1.0)
gen(1).
gen(T1) :- gen(Vx), \+ lim(Vx), T1 is (Vx + 1).
lim(100).
e_factor(Vx, Vfc) :- gen(Vfc), gen(Vx), (Vx rem Vfc) =:= 0, Vx \= Vfc.
perfect(Vx) :- gen(Vx), aggregate_all(sum(Vinv_T3), e_factor(Vx, Vinv_T3), T2), Vx = T2.
