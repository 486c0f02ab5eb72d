; The freight domain (examples/freight) in CoDMAP-15's unfactored MA-PDDL: each action names its
; agent on an :agent line, a private predicate group, `object` as a type, no type agent.
(define (domain freight)
	(:requirements :typing :multi-agent :unfactored-privacy)
(:types
	place physobj city - object
	truck airplane - vehicle
	package vehicle - physobj
	airport location - place
)
(:predicates
	(at ?obj - object ?loc - place)
	(in ?pkg - package ?veh - vehicle)

	(:private ?agent - truck
		(in-city ?agent - truck ?loc - place ?city - city)
	)
)

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
	:parameters (?from - place ?to - place ?city - city)
	:precondition (and (at ?truck ?from) (in-city ?truck ?from ?city) (in-city ?truck ?to ?city))
	:effect (and (not (at ?truck ?from)) (at ?truck ?to)))

(:action fly-airplane
	:agent ?airplane - airplane
	:parameters (?from - airport ?to - airport)
	:precondition (at ?airplane ?from)
	:effect (and (not (at ?airplane ?from)) (at ?airplane ?to)))
)
