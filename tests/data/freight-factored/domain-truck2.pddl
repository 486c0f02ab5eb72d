; The freight domain (examples/freight) in CoDMAP-15's factored MA-PDDL: a truck's own file. Its actions'
; first parameter is the truck that takes them; its private predicate in a (:private ...) group.
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

	(:private
		(in-city ?agent - truck ?loc - place ?city - city)
	)
)

(:action load-truck
	:parameters (?truck - truck ?pkg - package ?loc - place)
	:precondition (and (at ?truck ?loc) (at ?pkg ?loc))
	:effect (and (not (at ?pkg ?loc)) (in ?pkg ?truck)))

(:action unload-truck
	:parameters (?truck - truck ?pkg - package ?loc - place)
	:precondition (and (at ?truck ?loc) (in ?pkg ?truck))
	:effect (and (not (in ?pkg ?truck)) (at ?pkg ?loc)))

(:action drive-truck
	:parameters (?t - truck ?from - place ?to - place ?city - city)
	:precondition (and (at ?t ?from) (in-city ?t ?from ?city) (in-city ?t ?to ?city))
	:effect (and (not (at ?t ?from)) (at ?t ?to)))
)
