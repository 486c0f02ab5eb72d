(define (problem freight-p01) (:domain freight)
(:objects
	pkg1 - package
	pkg2 - package
	pkg3 - package
	depot1 - location
	depot2 - location
	port1 - airport
	port2 - airport

	(:private
		truck2 - truck
		city2 - city
	)
)
(:init
	(at truck2 depot2)
	(at pkg1 depot1)
	(at pkg2 depot2)
	(at pkg3 port1)
	(in-city truck2 depot2 city2)
	(in-city truck2 port2 city2)
)
(:goal
	(and
		(at pkg1 depot2)
		(at pkg2 port1)
		(at pkg3 depot1)
	)
)
)
