; CollabCapture of the LLM-Coordination benchmark (Agashe et al.), as its published code plays it.
; Two players chase a thief through rooms; the doors 1-2 and 3-4 are toggled by buttons in rooms 9
; and 8. A turn is serialized as: the players' moves, a capture by a swap, the thief's move, a
; capture in one room, then the button presses, so that every move is checked against the doors
; at the turn's start (the published code's rule). The thief's moves are environment actions: it
; follows a policy (away from the players' next rooms), which the grounder checks turn by turn.
;
; @strips-int navigation-actions: move move-through
; @strips-int position-predicates: at thief-at
(define (domain collab_capture)
  (:requirements :strips :typing :negative-preconditions)
  (:types
    room door agent - object
    player - agent)
  (:predicates
    (at ?p - player ?r - room)
    (thief-at ?r - room)
    (passage ?from ?to - room)
    (door-between ?d - door ?from ?to - room)
    (open ?d - door)
    (button ?r - room ?d - door)
    (caught))

  ; Walk to a neighbouring room joined by a doorless passage.
  (:action move
    :parameters (?p - player ?from ?to - room)
    :precondition (and (at ?p ?from) (passage ?from ?to))
    :effect (and (at ?p ?to) (not (at ?p ?from))))

  ; Walk through a door, which must be open.
  (:action move-through
    :parameters (?p - player ?from ?to - room ?d - door)
    :precondition (and (at ?p ?from) (door-between ?d ?from ?to) (open ?d))
    :effect (and (at ?p ?to) (not (at ?p ?from))))

  ; Press the button of a closed door: it opens.
  (:action open-door
    :parameters (?p - player ?r - room ?d - door)
    :precondition (and (at ?p ?r) (button ?r ?d) (not (open ?d)))
    :effect (open ?d))

  ; Press the button of an open door: it closes.
  (:action close-door
    :parameters (?p - player ?r - room ?d - door)
    :precondition (and (at ?p ?r) (button ?r ?d) (open ?d))
    :effect (not (open ?d)))

  ; Catch the thief: in one room with it (a swap is caught where the two met, before the thief's move).
  (:action catch
    :parameters (?p - player ?r - room)
    :precondition (and (at ?p ?r) (thief-at ?r) (not (caught)))
    :effect (caught))

  ; Environment: the thief moves through a passage.
  (:action thief-move
    :parameters (?from ?to - room)
    :precondition (and (thief-at ?from) (passage ?from ?to))
    :effect (and (thief-at ?to) (not (thief-at ?from))))

  ; Environment: the thief moves through an open door.
  (:action thief-move-through
    :parameters (?from ?to - room ?d - door)
    :precondition (and (thief-at ?from) (door-between ?d ?from ?to) (open ?d))
    :effect (and (thief-at ?to) (not (thief-at ?from))))
)
