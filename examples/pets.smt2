; An SMT-LIB 2 program for /prove --file (run: sym --batch examples/proofs.sym).
; Assertions are the knowledge base (named ones appear by name in an unsat core);
; each (check-sat-assuming (GOAL)) is a claim: proved, refuted or unknown.
(declare-sort Thing 0)
(declare-const tom Thing)
(declare-const nemo Thing)
(declare-fun cat (Thing) Bool)
(declare-fun fish (Thing) Bool)
(declare-fun mammal (Thing) Bool)
(assert (! (forall ((x Thing)) (=> (cat x) (mammal x))) :named all_cats_are_mammals))
(assert (! (forall ((x Thing)) (=> (mammal x) (not (fish x)))) :named no_mammal_is_a_fish))
(assert (! (cat tom) :named tom_is_a_cat))
(assert (! (fish nemo) :named nemo_is_a_fish))

(define-fun |Tom is a mammal| () Bool (mammal tom))
(check-sat-assuming (|Tom is a mammal|))
(define-fun |Tom is a fish| () Bool (fish tom))
(check-sat-assuming (|Tom is a fish|))
(define-fun |Nemo is a cat| () Bool (cat nemo))
(check-sat-assuming (|Nemo is a cat|))
(define-fun |some mammal is not a cat| () Bool (exists ((x Thing)) (and (mammal x) (not (cat x)))))
(check-sat-assuming (|some mammal is not a cat|))
