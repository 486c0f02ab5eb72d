; Appendix D.3, example 1: the firefighter finds the victim, the nurse treats it.
(define (problem victim-found)
  (:domain sar)
  (:objects
    hall kitchen - location
    v1 - victim
    kit1 - medkit
    firefighter1 - firefighter
    nurse1 - nurse)
  (:init
    (connected hall kitchen) (connected kitchen hall)
    (clear hall) (clear kitchen) (fire-free hall) (fire-free kitchen)
    (victim-at v1 kitchen)
    (at firefighter1 hall) (at nurse1 hall)
    (has nurse1 kit1))
  (:goal (treated v1)))
