; fire-out without the fire: the nurse can find and treat the victim alone (non-RC).
(define (problem no-fire)
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
    (fire-free hall) (fire-free kitchen)
    (victim-at v3 kitchen)
    (at firefighter1 hall) (at nurse1 hall)
    (has firefighter1 ext1) (has nurse1 kit1))
  (:goal (treated v3)))
