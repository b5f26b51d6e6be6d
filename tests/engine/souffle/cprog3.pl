% cprog3: translated from souffle-lang/souffle tests/evaluation/cprog3/cprog3.dl (UPL-1.0)
loop(0, 0, 0, 0).
loop(1, 10, Vy, Vz) :- loop(0, _, Vy, Vz).
loop(2, Vx, Vy, Vz) :- loop(1, Vx, _, _), loop(0, _, Vy, Vz), (Vx - Vz) > 0.
loop(3, Vx, Vy, T1) :- loop(1, Vx, Vy, Vz), (Vx - Vz) =< 0, T1 is (Vz * (-1)).
loop(4, Vx, Vy, Vz) :- loop(2, Vx, Vy, Vz).
loop(4, Vx, Vy, Vz) :- loop(3, Vx, Vy, Vz).
'R' :- loop(4, _, _, Vz), Vz >= 0.
