(Define (PROBLEM haul-1) (:DOMAIN haulage)
  (:OBJECTS truck1 truck2 - truck plane1 - airplane pkg1 pkg2 - package
            depot1 - location port1 port2 - airport depot2 - location city1 city2 - city)
  (:INIT (in-city depot1 city1) (in-city port1 city1) (in-city depot2 city2) (in-city port2 city2)
         (at truck1 depot1) (at truck2 port2) (at plane1 port1) (at pkg1 depot1) (at pkg2 port1)
         (= (total-cost) 0))
  (:GOAL (AND (at pkg1 depot2) (at pkg2 port2)))
  (:METRIC minimize (total-cost)))
