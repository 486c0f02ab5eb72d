;; A relay of runners, written as IPC writes its STRIPS domains: no types, objects told apart by
;; static unary predicates. Name the agents with --agent-types runner.
(define (domain relay)
  (:requirements :strips)
  (:predicates (runner ?r) (parcel ?p) (place ?x) (office ?x)
               (at ?o ?x) (link ?x ?y) (zone ?r ?x) (holding ?r ?p) (free ?r) (stamped ?p))

  (:action walk
   :parameters (?r ?from ?to)
   :precondition (and (runner ?r) (place ?from) (place ?to) (at ?r ?from) (link ?from ?to) (zone ?r ?to))
   :effect (and (not (at ?r ?from)) (at ?r ?to)))

  (:action pick
   :parameters (?p ?r ?x)
   :precondition (and (parcel ?p) (runner ?r) (place ?x) (at ?r ?x) (at ?p ?x) (free ?r))
   :effect (and (not (at ?p ?x)) (not (free ?r)) (holding ?r ?p)))

  (:action drop
   :parameters (?p ?r ?x)
   :precondition (and (parcel ?p) (runner ?r) (place ?x) (at ?r ?x) (holding ?r ?p))
   :effect (and (not (holding ?r ?p)) (free ?r) (at ?p ?x)))

  (:action stamp
   :parameters (?p ?x)
   :precondition (and (parcel ?p) (office ?x) (at ?p ?x))
   :effect (stamped ?p))
)
