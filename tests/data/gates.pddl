; A keeper unlocks gates that a walker passes: the walker needs (not (locked ?g)), a negative
; precondition, so the keeper's help is no causal link and strips_int finds no interdependence (it says why).
(define (domain gates)
  (:requirements :strips :typing :negative-preconditions)
  (:types keeper walker - agent cell gate - object)
  (:predicates (at ?a - agent ?c - cell) (link ?x - cell ?y - cell ?g - gate) (locked ?g - gate))

  (:action unlock
   :parameters (?k - keeper ?g - gate)
   :precondition (locked ?g)
   :effect (not (locked ?g)))

  (:action pass
   :parameters (?w - walker ?x - cell ?y - cell ?g - gate)
   :precondition (and (at ?w ?x) (link ?x ?y ?g) (not (locked ?g)))
   :effect (and (not (at ?w ?x)) (at ?w ?y)))
)
