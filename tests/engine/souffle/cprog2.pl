% cprog2: translated from souffle-lang/souffle tests/evaluation/cprog2/cprog2.dl (UPL-1.0)
loop(0, 0, 0, 0).
loop(1, Vx, 10, Vz) :- loop(0, Vx, _, Vz).
loop(2, Vx, 20, Vz) :- loop(1, Vx, _, Vz).
loop(3, 30, Vy, Vz) :- loop(2, _, Vy, _), loop(1, _, _, Vz).
loop(4, Vx, Vy, Vz) :- loop(2, _, Vy, Vz), loop(3, Vx, Vy, Vz), Vx > Vz.
loop(4, Vx, Vy, T1) :- loop(4, Vx, Vy, Vz), Vx > Vz, T1 is (Vz + 1).
loop(5, Vx, Vy, Vz) :- loop(4, Vx, Vy, Vz), Vx =< Vz.
loop(5, Vx, T2, Vz) :- loop(5, Vx, Vy, Vz), Vz > Vy, T2 is (Vy + 1).
loop(6, Vx, Vy, Vz) :- loop(5, Vx, Vy, Vz), Vz =< Vy.
'Res' :- loop(6, Vx, Vy, Vz), Vx = Vy, Vy = Vz.
