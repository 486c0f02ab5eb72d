; A logistics-like domain written as IPC domains are published (for tests/test_spec_oracle.py):
; upper-case keywords, no `agent` type (the pragma names the agents), an `either` parameter whose
; types are all agents, and action costs.
; @strips-int agent-types: truck airplane
(Define (DOMAIN haulage)
  (:REQUIREMENTS :strips :typing :action-costs)
  (:TYPES truck airplane - vehicle
          package vehicle - physobj
          airport location - place
          city place physobj - object)
  (:PREDICATES (in-city ?loc - place ?city - city)
               (at ?obj - physobj ?loc - place)
               (in ?pkg - package ?veh - vehicle))
  (:FUNCTIONS (total-cost) - number)
  (:ACTION load
    :PARAMETERS (?pkg - package ?veh - (either truck airplane) ?loc - place)
    :PRECONDITION (AND (at ?veh ?loc) (at ?pkg ?loc))
    :EFFECT (AND (not (at ?pkg ?loc)) (in ?pkg ?veh) (increase (total-cost) 1)))
  (:ACTION unload
    :PARAMETERS (?pkg - package ?veh - (either truck airplane) ?loc - place)
    :PRECONDITION (AND (at ?veh ?loc) (in ?pkg ?veh))
    :EFFECT (AND (not (in ?pkg ?veh)) (at ?pkg ?loc) (increase (total-cost) 1)))
  (:ACTION drive-truck
    :PARAMETERS (?truck - truck ?from ?to - place ?city - city)
    :PRECONDITION (AND (at ?truck ?from) (in-city ?from ?city) (in-city ?to ?city))
    :EFFECT (AND (not (at ?truck ?from)) (at ?truck ?to) (increase (total-cost) 3)))
  (:ACTION fly-airplane
    :PARAMETERS (?airplane - airplane ?from ?to - airport)
    :PRECONDITION (at ?airplane ?from)
    :EFFECT (AND (not (at ?airplane ?from)) (at ?airplane ?to) (increase (total-cost) 10))))
