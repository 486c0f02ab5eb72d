; Appendix D.4: the nurse parks her medkit with the police officer, who hands it back.
(define (problem medkit-loop)
  (:domain sar)
  (:objects
    hall bedroom - location
    v1 - victim
    kit1 - medkit
    police1 - police
    nurse1 - nurse)
  (:init
    (connected hall bedroom) (connected bedroom hall)
    (clear hall) (clear bedroom) (fire-free hall) (fire-free bedroom)
    (victim-at v1 bedroom)
    (at police1 hall) (at nurse1 hall)
    (has nurse1 kit1))
  (:goal (treated v1)))
