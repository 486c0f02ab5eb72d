; Key and door: the example plug-in of strips_int's "A new environment" page.
; Agents walk a grid of cells; a door is a cell no one may enter until an agent
; holding a key that fits it unlocks it from a neighbouring cell.
(define (domain keydoor)
  (:requirements :strips :typing)
  (:types agent cell key - object)
  (:predicates
    (at ?a - agent ?c - cell)
    (adjacent ?from ?to - cell)
    (open ?c - cell)
    (locked ?d - cell)
    (key-at ?k - key ?c - cell)
    (holds ?a - agent ?k - key)
    (fits ?k - key ?d - cell))

  ; Step into a neighbouring open cell (a floor cell, or a door once unlocked).
  (:action move
    :parameters (?a - agent ?from ?to - cell)
    :precondition (and (at ?a ?from) (adjacent ?from ?to) (open ?to))
    :effect (and (at ?a ?to) (not (at ?a ?from))))

  (:action take
    :parameters (?a - agent ?k - key ?c - cell)
    :precondition (and (at ?a ?c) (key-at ?k ?c))
    :effect (and (holds ?a ?k) (not (key-at ?k ?c))))

  ; Unlock the door in a neighbouring cell with a key that fits it: the door opens for everyone.
  (:action unlock
    :parameters (?a - agent ?k - key ?from ?d - cell)
    :precondition (and (at ?a ?from) (adjacent ?from ?d) (holds ?a ?k) (fits ?k ?d) (locked ?d))
    :effect (and (open ?d) (not (locked ?d))))
)
