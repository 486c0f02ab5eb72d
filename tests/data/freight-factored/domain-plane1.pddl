; The freight domain (examples/freight) in CoDMAP-15's factored MA-PDDL: the airplane's own file.
(define (domain freight)
	(:requirements :factored-privacy :typing)
(:types
	place physobj city - object
	truck airplane - vehicle
	package vehicle - physobj
	airport location - place
)
(:predicates
	(at ?obj - object ?loc - place)
	(in ?pkg - package ?veh - vehicle)
)

(:action load-airplane
	:parameters (?airplane - airplane ?pkg - package ?loc - airport)
	:precondition (and (at ?airplane ?loc) (at ?pkg ?loc))
	:effect (and (not (at ?pkg ?loc)) (in ?pkg ?airplane)))

(:action unload-airplane
	:parameters (?airplane - airplane ?pkg - package ?loc - airport)
	:precondition (and (at ?airplane ?loc) (in ?pkg ?airplane))
	:effect (and (not (in ?pkg ?airplane)) (at ?pkg ?loc)))

(:action fly-airplane
	:parameters (?airplane - airplane ?from - airport ?to - airport)
	:precondition (at ?airplane ?from)
	:effect (and (not (at ?airplane ?from)) (at ?airplane ?to)))
)
