"""APE's regression texts (Attempto/APE, tests/acetexts.pl, LGPL-3.0) as an outside test of sym's
English: a reader of the Prolog terms (prolog.py), a mechanical translation of each DRS that lies
within sym's logic into clauses (drs.py), and the comparison with what sym reads (compare.py)."""
