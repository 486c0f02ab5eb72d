(define (problem gates-p01) (:domain gates)
  (:objects k1 - keeper w1 - walker c1 c2 - cell g1 - gate)
  (:init (at w1 c1) (link c1 c2 g1) (locked g1))
  (:goal (and (at w1 c2))))
