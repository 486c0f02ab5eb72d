;; Freight: a logistics domain written as IPC domains are published, to show strips_int
;; on one (README, "Any published domain"): upper-case keywords, no type `agent`
;; (name the agents with --agent-types truck airplane), an `either` parameter whose
;; types are both agents, and action costs (read and dropped: they change no fact).

(Define (DOMAIN freight)
  (:REQUIREMENTS :STRIPS :TYPING :ACTION-COSTS)
  (:TYPES truck airplane - vehicle
          package vehicle - physobj
          airport location - place
          city place physobj - object)
  (:PREDICATES (in-city ?loc - place ?city - city)
               (at ?obj - physobj ?loc - place)
               (in ?pkg - package ?veh - vehicle))
  (:FUNCTIONS (total-cost) - number
              (road-length ?from ?to - place) - number)

  (:ACTION LOAD
    :PARAMETERS (?pkg - package ?veh - (either truck airplane) ?loc - place)
    :PRECONDITION (AND (at ?veh ?loc) (at ?pkg ?loc))
    :EFFECT (AND (not (at ?pkg ?loc)) (in ?pkg ?veh) (increase (total-cost) 1)))

  (:ACTION UNLOAD
    :PARAMETERS (?pkg - package ?veh - (either truck airplane) ?loc - place)
    :PRECONDITION (AND (at ?veh ?loc) (in ?pkg ?veh))
    :EFFECT (AND (not (in ?pkg ?veh)) (at ?pkg ?loc) (increase (total-cost) 1)))

  (:ACTION DRIVE-TRUCK
    :PARAMETERS (?truck - truck ?from ?to - place ?city - city)
    :PRECONDITION (AND (at ?truck ?from) (in-city ?from ?city) (in-city ?to ?city))
    :EFFECT (AND (not (at ?truck ?from)) (at ?truck ?to)
                 (increase (total-cost) (road-length ?from ?to))))

  (:ACTION FLY-AIRPLANE
    :PARAMETERS (?airplane - airplane ?from ?to - airport)
    :PRECONDITION (at ?airplane ?from)
    :EFFECT (AND (not (at ?airplane ?from)) (at ?airplane ?to) (increase (total-cost) 20))))
