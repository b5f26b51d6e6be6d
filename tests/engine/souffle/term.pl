% term: translated from souffle-lang/souffle tests/evaluation/term/term.dl (UPL-1.0)
equal(Vv1, Vv2) :- fn(Vv1, Vf), fn(Vv2, Vf), numParam(Vv1, 0), numParam(Vv2, 0).
equal(Vv1, Vv2) :- fn(Vv1, Vf), fn(Vv2, Vf), numParam(Vv1, Vp), numParam(Vv2, Vp), equalParam(Vv1, Vv2, Vp).
equalParam(Vv1, Vv2, 1) :- equal(Va1, Va2), arg(Vv1, 1, Va1), arg(Vv2, 1, Va2).
nextEqualParam(Vv1, Vv2, T1) :- equalParam(Vv1, Vv2, Vprev), T1 is (Vprev + 1).
equalParam(Vv1, Vv2, Vnext) :- equal(Va1, Va2), arg(Vv1, Vnext, Va1), arg(Vv2, Vnext, Va2), nextEqualParam(Vv1, Vv2, Vnext).
fn(x, f).
arg(x, 1, a1).
arg(x, 2, a2).
numParam(x, 2).
fn(y, f).
arg(y, 1, b1).
arg(y, 2, b2).
numParam(y, 2).
fn(a1, g).
numParam(a1, 0).
fn(a2, h).
numParam(a2, 0).
fn(b1, g).
numParam(b1, 0).
fn(b2, h).
numParam(b2, 0).
