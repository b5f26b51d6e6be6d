% How benchmarks/ape/acetexts.pl.gz was made from APE's tests/acetexts.pl (Attempto/APE,
% LGPL-3.0): the evaluation-0 facts (correct analyses), each written back unchanged but for its
% syntax trees (the 5th argument), which become [] (the trees are three fifths of the file and
% nothing here reads them).
%
%   grep '^text_drs_eval(0,' acetexts.pl > eval0.pl
%   swipl -q benchmarks/ape/strip_trees.pl -- eval0.pl stripped.pl && gzip -9 -n -c stripped.pl > acetexts.pl.gz

:- op(400, fx, -).
:- op(400, fx, ~).
:- op(500, xfx, =>).
:- op(500, xfx, v).

strip(InFile, OutFile) :-
    open(InFile, read, In, [encoding(utf8)]),
    open(OutFile, write, Out, [encoding(utf8)]),
    repeat,
    read_term(In, T, []),
    (   T == end_of_file
    ->  !
    ;   T = text_drs_eval(E, Id, Text, Drs, _Trees, Time, Author, Comment),
        T2 = text_drs_eval(E, Id, Text, Drs, [], Time, Author, Comment),
        numbervars(T2, 0, _),
        write_term(Out, T2, [quoted(true), numbervars(true), spacing(next_argument)]),
        write(Out, '.'), nl(Out),
        fail
    ),
    close(In), close(Out).

:- initialization((current_prolog_flag(argv, [InFile, OutFile]), strip(InFile, OutFile), halt), main).
