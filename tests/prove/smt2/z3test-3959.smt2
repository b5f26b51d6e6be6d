(declare-const a Bool)
(check-sat-assuming (a (or true)))
