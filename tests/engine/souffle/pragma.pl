% pragma: translated from souffle-lang/souffle tests/semantic/pragma/pragma.dl (UPL-1.0)
words(0, 'There').
words(1, are).
words(2, four).
words(3, red).
words(4, birds).
words(5, and).
words(6, five).
words(7, green).
words(8, birds).
words(9, in).
words(10, the).
words(11, tree).
bigram(Vw, Vw1) :- words(Vi, Vw), words(VT1, Vw1), VT1 =:= (Vi + 1).
