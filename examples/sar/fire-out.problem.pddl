; Appendix D.3, example 3: the firefighter puts out the fire in the victim's room.
(define (problem fire-out)
  (:domain sar)
  (:objects
    hall kitchen - location
    v3 - victim
    kit1 - medkit
    ext1 - extinguisher
    firefighter1 - firefighter
    nurse1 - nurse)
  (:init
    (connected hall kitchen) (connected kitchen hall)
    (clear hall) (clear kitchen)
    (fire-free hall) (on-fire kitchen)
    (victim-at v3 kitchen)
    (at firefighter1 hall) (at nurse1 hall)
    (has firefighter1 ext1) (has nurse1 kit1))
  (:goal (treated v3)))
