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
		truck1 - truck
		city1 - city
	)
)
(:init
	(at truck1 depot1)
	(at pkg1 depot1)
	(at pkg2 depot2)
	(at pkg3 port1)
	(in-city truck1 depot1 city1)
	(in-city truck1 port1 city1)
)
(:goal
	(and
		(at pkg1 depot2)
		(at pkg2 port1)
		(at pkg3 depot1)
	)
)
)
