% magic_centroids: translated from souffle-lang/souffle tests/evaluation/magic_centroids/magic_centroids.dl (UPL-1.0)
'Edge'('1', '2').
'Edge'('1', '3').
'Edge'('1', '4').
'Edge'('2', '5').
'Edge'('2', '6').
'Edge'('2', '7').
'Edge'('3', '8').
'Edge'('4', '9').
'Edge'('5', '10').
'Edge'('5', '11').
'Edge'('5', '12').
'Edge'('7', '13').
'Edge'('9', '14').
'Edge'('9', '15').
'Edge'('9', '16').
'Edge'('9', '17').
'Edge'('10', '18').
'Edge'('10', '19').
'Edge'('13', '20').
'Edge'('15', '21').
'Edge'('16', '22').
'Edge'(Vm, Vn) :- 'Edge'(Vn, Vm).
'NotLeaf'(Vn) :- 'Edge'(Va, Vn), 'Edge'(Vb, Vn), Va \= Vb.
'Leaf'(Vn) :- 'Edge'(_, Vn), \+ 'NotLeaf'(Vn).
'InSubtree'(Vm, Vn, Vn) :- 'Edge'(Vm, Vn).
'InSubtree'(Vm, Vn, Va) :- 'Edge'(Vm, Vn), 'Edge'(Vn, Vp), 'InSubtree'(Vn, Vp, Va), Vm \= Vp.
'TreeCard'(T1) :- aggregate_all(sum(1), 'Leaf'(_), Va), aggregate_all(sum(1), 'NotLeaf'(_), Vb), T1 is (Va + Vb).
'SubtreeCard'(Vm, Vn, Vc) :- 'Edge'(Vm, Vn), aggregate_all(sum(1), 'InSubtree'(Vm, Vn, _), Vc).
'NotCentroid'(Vn) :- 'TreeCard'(Vc), 'SubtreeCard'(Vn, _, Vd), Vd > (Vc // 2).
'Centroid'(Vn) :- 'Edge'(Vn, _), \+ 'NotCentroid'(Vn).
