% minmaxnum: translated from souffle-lang/souffle tests/evaluation/minmaxnum/minmaxnum.dl (UPL-1.0)
test_pair(1, 2).
test_pair(3, 2).
test_pair(50, 20).
test_pair(20, 50).
test_pair(0, 0).
test_pair(-1, 30).
test_pair(30, -20).
test_pair(10, 10).
test_pair(22, 23).
test_pair(23, 22).
test_pair(8, 2).
bounded_difference(Vx, Vy, T1) :- test_pair(Vx, Vy), T1 is max((Vx - Vy), 0).
bounded_sum(Vx, Vy, T2) :- test_pair(Vx, Vy), T2 is min((Vx + Vy), 50).
absolute_difference(Vx, Vy, T3) :- test_pair(Vx, Vy), T3 is max((Vx - Vy), (Vy - Vx)).
