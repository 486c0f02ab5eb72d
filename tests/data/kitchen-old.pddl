; Two cooks split by counters k1 and k2 (for tests/test_spec_oracle.py and benchmarks/spec_check.py
; --walks): only p0 reaches the onions and tomatoes, only p1 the dishes and the window; pot2 is shared.
; Old Overcooked rules: a pot cooks by itself at three ingredients.
(define (problem kitchen-old) (:domain overcooked)
  (:objects p0 p1 - agent a1 a2 b1 b2 - cell k1 k2 - counter od - onion-dispenser td - tomato-dispenser
            dd - dish-dispenser pot1 pot2 - pot w - window on0 on1 on2 on3 - onion tom1 - tomato
            s0 s1 - soup d0 d1 - dish)
  (:init (at p0 a1) (at p1 b1) (occupied a1) (occupied b1) (hand-empty p0) (hand-empty p1)
         (adjacent a1 a2) (adjacent a2 a1) (adjacent b1 b2) (adjacent b2 b1) (empty k1) (empty k2)
         (pot-empty pot1) (pot-empty pot2) (succ n0 n1) (succ n1 n2) (succ n2 n3)
         (next-to a1 od) (next-to a2 td) (next-to a1 k1) (next-to b1 k1) (next-to a2 k2) (next-to b2 k2)
         (next-to b1 pot1) (next-to b2 pot2) (next-to a2 pot2) (next-to b2 dd) (next-to b1 w)
         (fresh on0) (fresh on1) (fresh on2) (fresh on3) (fresh tom1) (fresh s0) (fresh s1) (fresh d0) (fresh d1) (auto-cook))
  (:goal (and (delivered s0))))
