% max: translated from souffle-lang/souffle tests/evaluation/max/max.dl (UPL-1.0)
'Element'(1).
'Element'(2).
'Element'(7).
'Element'(25).
'Element'(104).
'Maximum'(VMaxValue) :- aggregate_all(max(VElementValue_T1), 'Element'(VElementValue_T1), VMaxValue).
