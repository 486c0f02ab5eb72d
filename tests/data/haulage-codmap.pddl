; The haulage domain in CoDMAP-15's unfactored MA-PDDL (for tests/test_spec_oracle.py): each action
; names its agent with :agent, read as the actor and first parameter (definitions section 1).
; @strips-int agent-types: truck airplane
(define (domain haulage)
  (:requirements :typing :multi-agent :unfactored-privacy)
  (:types truck airplane - vehicle
          package vehicle - physobj
          airport location - place
          city place physobj - object)
  (:predicates (in-city ?loc - place ?city - city)
               (at ?obj - physobj ?loc - place)
               (in ?pkg - package ?veh - vehicle))
  (:action load-truck
    :agent ?truck - truck
    :parameters (?pkg - package ?loc - place)
    :precondition (and (at ?truck ?loc) (at ?pkg ?loc))
    :effect (and (not (at ?pkg ?loc)) (in ?pkg ?truck)))
  (:action unload-truck
    :agent ?truck - truck
    :parameters (?pkg - package ?loc - place)
    :precondition (and (at ?truck ?loc) (in ?pkg ?truck))
    :effect (and (not (in ?pkg ?truck)) (at ?pkg ?loc)))
  (:action load-airplane
    :agent ?airplane - airplane
    :parameters (?pkg - package ?loc - airport)
    :precondition (and (at ?airplane ?loc) (at ?pkg ?loc))
    :effect (and (not (at ?pkg ?loc)) (in ?pkg ?airplane)))
  (:action unload-airplane
    :agent ?airplane - airplane
    :parameters (?pkg - package ?loc - airport)
    :precondition (and (at ?airplane ?loc) (in ?pkg ?airplane))
    :effect (and (not (in ?pkg ?airplane)) (at ?pkg ?loc)))
  (:action drive-truck
    :agent ?truck - truck
    :parameters (?from ?to - place ?city - city)
    :precondition (and (at ?truck ?from) (in-city ?from ?city) (in-city ?to ?city))
    :effect (and (not (at ?truck ?from)) (at ?truck ?to)))
  (:action fly-airplane
    :agent ?airplane - airplane
    :parameters (?from ?to - airport)
    :precondition (at ?airplane ?from)
    :effect (and (not (at ?airplane ?from)) (at ?airplane ?to))))
