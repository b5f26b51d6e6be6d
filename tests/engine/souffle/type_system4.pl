% type_system4: translated from souffle-lang/souffle tests/semantic/type_system4/type_system4.dl (UPL-1.0)
numeric(Vm, Vv) :- Vv = 2, Vm is (Vv - 1).
