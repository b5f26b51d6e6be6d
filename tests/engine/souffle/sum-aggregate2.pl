% sum-aggregate2: translated from souffle-lang/souffle tests/evaluation/sum-aggregate2/sum-aggregate2.dl (UPL-1.0)
numbers(-1).
numbers(1).
numbers(2).
numbers(3).
numbers(4).
numbers(5).
sum_result(Vx) :- aggregate_all(sum(Va_T1), (numbers(Va_T1), Va_T1 > 0), Vx).
