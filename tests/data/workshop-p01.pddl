; Three workers in the workshop (tests/data/workshop.pddl), for random walks
; (benchmarks/spec_check.py --walks): a locked vault with no key and one a smith can open.
(define (problem workshop-p01) (:domain workshop)
  (:objects smith1 smith2 - smith courier1 - courier forge-room hall yard - place
            blade1 blade2 blade3 - item v1 v2 - vault)
  (:init (link forge-room hall) (link hall forge-room) (link hall yard) (link yard hall)
         (forge-at forge-room) (vault-at v1 hall) (vault-at v2 yard) (locked v1) (locked v2) (keyed v2)
         (at smith1 forge-room) (at courier1 yard) (at smith2 hall)
         (item-at blade1 yard) (raw blade1) (raw blade2) (has smith2 blade2) (item-at blade3 hall)
         (bench-free forge-room))
  (:goal (and (polished blade1))))
