(set-logic QF_NRA)
(check-sat-using ctx-solver-simplify)