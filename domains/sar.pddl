; Search and rescue (appendix D of "Who is Helping Whom?").
; A house of locations joined by doors; fire and debris block the way; victims
; are found by searching and treated by a nurse who carries a medkit.
;
; @strips-int navigation-actions: move
; @strips-int position-predicates: item-at
(define (domain sar)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types
    location victim item agent - object
    medkit extinguisher - item
    nurse firefighter police - agent)
  (:predicates
    (at ?a - agent ?l - location)
    (connected ?from ?to - location)
    (victim-at ?v - victim ?l - location)
    (located ?v - victim)
    (treated ?v - victim)
    (on-fire ?l - location)
    (fire-free ?l - location)
    (debris ?l - location)
    (clear ?l - location)
    (item-at ?i - item ?l - location)
    (has ?a - agent ?i - item)
    (used ?k - medkit))

  ; Walk through a door into a neighbouring location that is clear and not burning.
  (:action move
    :parameters (?a - agent ?from ?to - location)
    :precondition (and (at ?a ?from) (connected ?from ?to)
                       (clear ?to) (fire-free ?to) (not (= ?from ?to)))
    :effect (and (at ?a ?to) (not (at ?a ?from))))

  ; Look around a location and find the victim lying there.
  (:action search
    :parameters (?a - agent ?v - victim ?l - location)
    :precondition (and (at ?a ?l) (victim-at ?v ?l) (not (located ?v)))
    :effect (located ?v))

  (:action pick-up
    :parameters (?a - agent ?i - item ?l - location)
    :precondition (and (at ?a ?l) (item-at ?i ?l))
    :effect (and (has ?a ?i) (not (item-at ?i ?l))))

  (:action drop
    :parameters (?a - agent ?i - item ?l - location)
    :precondition (and (at ?a ?l) (has ?a ?i))
    :effect (and (item-at ?i ?l) (not (has ?a ?i))))

  ; Hand an item to a teammate in the same location.
  (:action give
    :parameters (?a - agent ?b - agent ?i - item ?l - location)
    :precondition (and (at ?a ?l) (at ?b ?l) (has ?a ?i) (not (= ?a ?b)))
    :effect (and (has ?b ?i) (not (has ?a ?i))))

  ; Put out the fire in a neighbouring location.
  (:action extinguish
    :parameters (?f - firefighter ?e - extinguisher ?from ?to - location)
    :precondition (and (at ?f ?from) (connected ?from ?to) (has ?f ?e) (on-fire ?to))
    :effect (and (fire-free ?to) (not (on-fire ?to))))

  ; Clear the debris that blocks a neighbouring location.
  (:action clear-debris
    :parameters (?f - firefighter ?from ?to - location)
    :precondition (and (at ?f ?from) (connected ?from ?to) (debris ?to))
    :effect (and (clear ?to) (not (debris ?to))))

  ; Treat a located victim in a location free of fire; the kit is used up.
  (:action treat
    :parameters (?n - nurse ?k - medkit ?v - victim ?l - location)
    :precondition (and (at ?n ?l) (victim-at ?v ?l) (located ?v) (has ?n ?k)
                       (fire-free ?l) (not (treated ?v)))
    :effect (and (treated ?v) (used ?k)))

  ; Environment: fire spreads into a neighbouring location.
  (:action spread-fire
    :parameters (?from ?to - location)
    :precondition (and (on-fire ?from) (connected ?from ?to) (fire-free ?to))
    :effect (and (on-fire ?to) (not (fire-free ?to))))
)
