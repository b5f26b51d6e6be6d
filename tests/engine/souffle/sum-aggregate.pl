% sum-aggregate: translated from souffle-lang/souffle tests/evaluation/sum-aggregate/sum-aggregate.dl (UPL-1.0)
'Benchmark'(snapshots1, 'q1.tql', z3, 'magic-sets', 4000, 207660).
'Benchmark'(snapshots1, 'q1.tql', 'souffle-compiler', 'magic-sets', 2000, 359996).
'Benchmark'(snapshots2, 'q1.tql', z3, 'magic-sets', 7000, 1573508).
'Benchmark'(snapshots2, 'q1.tql', 'souffle-compiler', 'magic-sets', 6000, 1357348).
'Metrics'(snapshots1, 100, 300).
'Metrics'(snapshots2, 4982, 778).
'Metrics'(snapshots3, 667, 880).
'DOM'(Vins) :- 'Benchmark'(Vs, _, z3, _, _, _), 'Metrics'(Vs, Vins, _).
'SUM'(VV) :- aggregate_all(sum(Vins_T1), 'DOM'(Vins_T1), VV).
