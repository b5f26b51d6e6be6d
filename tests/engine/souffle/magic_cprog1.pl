% magic_cprog1: translated from souffle-lang/souffle tests/evaluation/magic_cprog1/magic_cprog1.dl (UPL-1.0)
loop(0, 0, 10, 100).
loop(1, Vx, Vy, Vz) :- loop(0, Vx, Vy, Vz).
loop(1, T1, Vy, Vz) :- loop(1, Vx, Vy, _), loop(0, _, _, Vz), Vx < Vy, T1 is (Vx + 1).
loop(2, Vx, Vy, Vz) :- loop(1, Vx, Vy, Vz), Vx >= Vy.
loop(2, Vx, T2, Vz) :- loop(2, _, Vy, Vz), loop(1, Vx, _, _), Vy < Vz, T2 is (Vy + 1).
loop(3, Vx, Vy, Vz) :- loop(2, Vx, Vy, Vz), Vy >= Vz.
'Res' :- loop(3, _, Vy, _), Vy = 100.
