% set_ops: translated from souffle-lang/souffle tests/evaluation/set_ops/set_ops.dl (UPL-1.0)
a(a).
a(b).
a(c).
b(a).
b(b).
b(c).
c(a).
c(c).
d(a).
e_d(yes) :- d(_).
res('d is empty') :- \+ e_d(yes).
a2b(Vx, Vx) :- a(Vx), b(Vx).
a2b_a(Vx) :- a2b(Vx, _).
a2b_b(Vx) :- a2b(_, Vx).
a2b_unmapped_a(Vx) :- a(Vx), \+ a2b_a(Vx).
a2b_unmapped_b(Vx) :- b(Vx), \+ a2b_b(Vx).
a2b_unmapped_a_exist(yes) :- a2b_unmapped_a(_).
a2b_unmapped_b_exist(yes) :- a2b_unmapped_b(_).
a2c(Vx, Vx) :- a(Vx), c(Vx).
a2c_a(Vx) :- a2c(Vx, _).
a2c_c(Vx) :- a2c(_, Vx).
a2c_unmapped_a(Vx) :- a(Vx), \+ a2c_a(Vx).
a2c_unmapped_c(Vx) :- c(Vx), \+ a2c_c(Vx).
a2c_unmapped_a_exist(yes) :- a2c_unmapped_a(_).
a2c_unmapped_c_exist(yes) :- a2c_unmapped_c(_).
b2c(Vx, Vx) :- b(Vx), c(Vx).
b2c_b(Vx) :- b2c(Vx, _).
b2c_c(Vx) :- b2c(_, Vx).
b2c_unmapped_b(Vx) :- b(Vx), \+ b2c_b(Vx).
b2c_unmapped_c(Vx) :- c(Vx), \+ b2c_c(Vx).
b2c_unmapped_b_exist(yes) :- b2c_unmapped_b(_).
b2c_unmapped_c_exist(yes) :- b2c_unmapped_c(_).
res('a==b') :- \+ a2b_unmapped_a_exist(yes), \+ a2b_unmapped_b_exist(yes).
res('a==c') :- \+ a2c_unmapped_a_exist(yes), \+ a2c_unmapped_c_exist(yes).
res('b==c') :- \+ b2c_unmapped_b_exist(yes), \+ b2c_unmapped_c_exist(yes).
res('a!=b') :- a2b_unmapped_a_exist(yes).
res('a!=b') :- a2b_unmapped_b_exist(yes).
res('a!=c') :- a2c_unmapped_a_exist(yes).
res('a!=c') :- a2c_unmapped_c_exist(yes).
res('b!=c') :- b2c_unmapped_b_exist(yes).
res('b!=c') :- b2c_unmapped_c_exist(yes).
res('a subset b') :- a2b_unmapped_b_exist(yes), \+ a2b_unmapped_a_exist(yes).
res('b subset a') :- a2b_unmapped_a_exist(yes), \+ a2b_unmapped_b_exist(yes).
res('a subset c') :- a2c_unmapped_c_exist(yes), \+ a2c_unmapped_a_exist(yes).
res('c subset a') :- a2c_unmapped_a_exist(yes), \+ a2c_unmapped_c_exist(yes).
res('b subset c') :- b2c_unmapped_c_exist(yes), \+ b2c_unmapped_b_exist(yes).
res('c subset b') :- b2c_unmapped_b_exist(yes), \+ b2c_unmapped_c_exist(yes).
