;; Two cities, a truck in each and one airplane: pkg1 and pkg2 must change cities (by truck, airplane,
;; truck), pkg3 stays in its own.
(Define (PROBLEM freight-p01) (:DOMAIN freight)
  (:OBJECTS truck1 truck2 - truck plane1 - airplane
            pkg1 pkg2 pkg3 - package
            depot1 depot2 - location port1 port2 - airport
            city1 city2 - city)
  (:INIT (in-city depot1 city1) (in-city port1 city1) (in-city depot2 city2) (in-city port2 city2)
         (at truck1 depot1) (at truck2 depot2) (at plane1 port1)
         (at pkg1 depot1) (at pkg2 depot2) (at pkg3 port1)
         (= (road-length depot1 port1) 4) (= (road-length port1 depot1) 4)
         (= (road-length depot2 port2) 3) (= (road-length port2 depot2) 3)
         (= (total-cost) 0))
  (:GOAL (AND (at pkg1 depot2) (at pkg2 port1) (at pkg3 depot1)))
  (:METRIC minimize (total-cost)))
