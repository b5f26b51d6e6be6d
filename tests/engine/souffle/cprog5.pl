% cprog5: translated from souffle-lang/souffle tests/evaluation/cprog5/cprog5.dl (UPL-1.0)
loop(0, 0, 0, 0).
loop(1, 5, Vy, Vz) :- loop(0, _, Vy, Vz).
loop(2, Vx, Vy, 3) :- loop(1, Vx, Vy, _).
loop(3, Vx, 1, Vz) :- loop(0, _, _, Vz), loop(1, Vx, _, _).
loop(7, Vx, Vy, Vz) :- loop(3, Vx, Vy, Vz), Vx =< Vz.
loop(4, Vx, Vy, Vz) :- loop(3, Vx, Vy, Vz), Vx > Vz.
loop(4, Vx, T1, Vz) :- loop(4, Vx, Vy, Vz), Vz > Vy, T1 is (Vy + 1).
loop(5, Vx, Vy, Vz) :- loop(4, Vx, Vy, Vz), Vz =< Vy.
loop(3, Vx, Vy, T2) :- loop(5, Vx, Vy, Vz), T2 is (Vz + 1).
'R' :- loop(7, Vx, _, Vz), Vx = Vz.
