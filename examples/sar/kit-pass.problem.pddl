; Appendix D.3, example 2: the firefighter, closer to the medkit, hands it to the nurse.
(define (problem kit-pass)
  (:domain sar)
  (:objects
    hall storage bedroom - location
    v2 - victim
    kit1 - medkit
    firefighter1 - firefighter
    nurse1 - nurse)
  (:init
    (connected hall storage) (connected storage hall)
    (connected hall bedroom) (connected bedroom hall)
    (clear hall) (clear storage) (clear bedroom)
    (fire-free hall) (fire-free storage) (fire-free bedroom)
    (victim-at v2 bedroom)
    (item-at kit1 storage)
    (at firefighter1 hall) (at nurse1 hall))
  (:goal (treated v2)))
