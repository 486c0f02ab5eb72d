; A small multi-agent domain for the definitions oracle's tests (tests/test_spec_oracle.py): a smith and a
; courier pass items by hand and through a forge that works by itself, stash them in vaults, ring an
; alarm and call each other. It has no navigation pragma (definitions section 6's rule decides on each step),
; an ignored predicate on a chain through the environment and one in an item's state, negative
; preconditions, a 0-ary fact and a fact whose arguments are all agents.
;
; @strips-int position-predicates: item-at
; @strips-int ignore-predicates: bench-free dusty
(define (domain workshop)
  (:requirements :strips :typing :negative-preconditions)
  (:types agent place item vault - object
          smith courier - agent)
  (:predicates
    (at ?a - agent ?p - place)
    (link ?p ?q - place)
    (item-at ?i - item ?p - place)
    (has ?a - agent ?i - item)
    (bench-free ?p - place)
    (raw ?i - item)
    (forged ?i - item)
    (polished ?i - item)
    (stamped ?i - item)
    (dusty ?i - item)
    (inspected ?i - item)
    (in-forge ?i - item ?p - place)
    (forge-at ?p - place)
    (vault-at ?v - vault ?p - place)
    (in-vault ?i - item ?v - vault)
    (locked ?v - vault)
    (keyed ?v - vault)
    (aired ?p - place)
    (worked ?p - place)
    (alarm)
    (done ?a - agent)
    (called ?b - agent)
    (answered ?b - agent ?i - item))

  (:action move
    :parameters (?a - agent ?from ?to - place)
    :precondition (and (at ?a ?from) (link ?from ?to))
    :effect (and (at ?a ?to) (not (at ?a ?from))))

  (:action wait
    :parameters (?a - agent)
    :precondition (and)
    :effect (and))

  (:action pick
    :parameters (?a - agent ?i - item ?p - place)
    :precondition (and (at ?a ?p) (item-at ?i ?p))
    :effect (and (has ?a ?i) (not (item-at ?i ?p)) (bench-free ?p)))

  (:action drop
    :parameters (?a - agent ?i - item ?p - place)
    :precondition (and (at ?a ?p) (has ?a ?i) (bench-free ?p))
    :effect (and (item-at ?i ?p) (not (has ?a ?i)) (not (bench-free ?p))))

  ; No inequality: giving to oneself is a step that only touches the giver (navigation, section 6).
  (:action give
    :parameters (?a - agent ?b - agent ?i - item ?p - place)
    :precondition (and (at ?a ?p) (at ?b ?p) (has ?a ?i))
    :effect (and (not (has ?a ?i)) (has ?b ?i)))

  (:action load-forge
    :parameters (?a - smith ?i - item ?p - place)
    :precondition (and (at ?a ?p) (forge-at ?p) (has ?a ?i) (raw ?i))
    :effect (and (in-forge ?i ?p) (not (has ?a ?i))))

  ; Environment: the forge works by itself and leaves the item on its bench.
  (:action forge
    :parameters (?i - item ?p - place)
    :precondition (and (in-forge ?i ?p) (raw ?i))
    :effect (and (forged ?i) (not (raw ?i)) (item-at ?i ?p) (not (in-forge ?i ?p))))

  (:action polish
    :parameters (?a - agent ?i - item)
    :precondition (and (has ?a ?i) (forged ?i))
    :effect (polished ?i))

  ; Stamping a stamped item adds (stamped ?i) again (the achiever rule of section 3).
  (:action stamp
    :parameters (?a - agent ?i - item)
    :precondition (has ?a ?i)
    :effect (stamped ?i))

  ; Dust on an item is bookkeeping (ignored), yet part of the item's state (definitions section 12).
  (:action dust
    :parameters (?a - agent ?i - item)
    :precondition (has ?a ?i)
    :effect (dusty ?i))

  (:action inspect
    :parameters (?a - courier ?i - item ?p - place)
    :precondition (and (at ?a ?p) (item-at ?i ?p) (stamped ?i))
    :effect (inspected ?i))

  (:action stash
    :parameters (?a - agent ?i - item ?v - vault ?p - place)
    :precondition (and (at ?a ?p) (vault-at ?v ?p) (has ?a ?i))
    :effect (and (in-vault ?i ?v) (not (has ?a ?i))))

  (:action unstash
    :parameters (?a - agent ?i - item ?v - vault ?p - place)
    :precondition (and (at ?a ?p) (vault-at ?v ?p) (in-vault ?i ?v) (not (locked ?v)))
    :effect (and (has ?a ?i) (not (in-vault ?i ?v))))

  (:action unlock
    :parameters (?a - smith ?v - vault ?p - place)
    :precondition (and (at ?a ?p) (vault-at ?v ?p) (keyed ?v))
    :effect (not (locked ?v)))

  ; Environment: a free bench lets the air through (a chain on an ignored fact, section 4).
  (:action vent
    :parameters (?p - place)
    :precondition (and (bench-free ?p) (not (aired ?p)))
    :effect (aired ?p))

  (:action work
    :parameters (?a - agent ?p - place)
    :precondition (and (at ?a ?p) (aired ?p))
    :effect (worked ?p))

  (:action ring
    :parameters (?a - agent)
    :precondition (and)
    :effect (alarm))

  ; Sounding the alarm with an item in hand: a 0-ary fact that carries relevance (definitions section 3).
  (:action sound
    :parameters (?a - agent ?i - item)
    :precondition (has ?a ?i)
    :effect (alarm))

  ; Only the answerer's own status changes: navigation by section 6's rule.
  (:action answer
    :parameters (?b - agent)
    :precondition (alarm)
    :effect (done ?b))

  (:action call
    :parameters (?a - agent ?b - agent)
    :precondition (and)
    :effect (called ?b))

  (:action reply
    :parameters (?b - agent ?i - item)
    :precondition (and (called ?b) (has ?b ?i))
    :effect (answered ?b ?i))
)
