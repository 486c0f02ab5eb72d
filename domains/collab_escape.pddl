; CollabEscape of the LLM-Coordination benchmark (Agashe et al.), as its published code plays it.
; Two survivors repair the two generators (each needs two fixes on consecutive turns, by anyone),
; which opens the exit gate, and escape through the exit room while a killer hunts them. Passages
; are one-way where the published room graph is (8 -> 7, 7 -> 3). A turn is serialized as: the
; generators whose repair stopped lose their first fix, the survivors' actions, the killer's move,
; the gate opening, the escape. The killer's moves are environment actions: it follows a policy
; (greedy on survivors next to it, else random), which the grounder checks turn by turn.
;
; @strips-int navigation-actions: move
; @strips-int position-predicates: at killer-at
(define (domain collab_escape)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types
    room agent - object
    survivor - agent)
  (:predicates
    (at ?s - survivor ?r - room)
    (killer-at ?r - room)
    (passage ?from ?to - room)
    (generator ?r - room)
    (half-fixed ?r - room)
    (fixed ?r - room)
    (exit ?r - room)
    (gate-open)
    (escaped))

  (:action move
    :parameters (?s - survivor ?from ?to - room)
    :precondition (and (at ?s ?from) (passage ?from ?to))
    :effect (and (at ?s ?to) (not (at ?s ?from))))

  ; The first of two consecutive fixes.
  (:action start-fix
    :parameters (?s - survivor ?r - room)
    :precondition (and (at ?s ?r) (generator ?r) (not (half-fixed ?r)) (not (fixed ?r)))
    :effect (half-fixed ?r))

  ; The second fix, by anyone, the turn after the first (or in the same turn).
  (:action finish-fix
    :parameters (?s - survivor ?r - room)
    :precondition (and (at ?s ?r) (half-fixed ?r))
    :effect (and (fixed ?r) (not (half-fixed ?r))))

  ; Leave through the exit room once the gate is open.
  (:action escape
    :parameters (?s - survivor ?r - room)
    :precondition (and (at ?s ?r) (exit ?r) (gate-open))
    :effect (escaped))

  ; Environment: a repair nobody continued this turn loses its first fix.
  (:action reset-generator
    :parameters (?r - room)
    :precondition (half-fixed ?r)
    :effect (not (half-fixed ?r)))

  ; Environment: both generators repaired open the exit gate.
  (:action open-gate
    :parameters (?g1 ?g2 - room)
    :precondition (and (fixed ?g1) (fixed ?g2) (generator ?g1) (generator ?g2) (not (= ?g1 ?g2)) (not (gate-open)))
    :effect (gate-open))

  ; Environment: the killer moves along a passage.
  (:action killer-move
    :parameters (?from ?to - room)
    :precondition (and (killer-at ?from) (passage ?from ?to))
    :effect (and (killer-at ?to) (not (killer-at ?from))))
)
