% average: translated from souffle-lang/souffle tests/evaluation/average/average.dl (UPL-1.0)
'Element'(1).
'Element'(2).
'Element'(7).
'Element'(25).
'Element'(104).
'TotalValue'(Vvalue) :- aggregate_all(sum(VElementValue_T1), 'Element'(VElementValue_T1), Vvalue).
'NumberOfelements'(Vvalue) :- aggregate_all(count, 'Element'(_), Vvalue).
'Average'(T2) :- 'TotalValue'(Vf), 'NumberOfelements'(Vd), T2 is (Vf // Vd).
