; Google Research Football (gfootball) for strips_int: who set up whom with the ball.
;
; Players. The players a study is about (one team's; only its agent-controlled players when the
; dump says which) are agents, type `player`. Every other player, opponents and team-mates the
; built-in AI moves, is an `other`: their actions are environment actions, so help never passes
; through them (as ZSC-Eval counts passes only between its agents' players).
;
; The ball. (has ?p ball) / (other-has ?o ball): who owns it, from gfootball's ball_owned_team and
; ball_owned_player. (loose ball): in play and nobody owns it, as a player's kick leaves it; a
; team-mate's gain needs it, so a completed pass is the kick -> gain interdependence, and every
; kick is a trigger (a ball a team-mate can take). (free ball) and (dead ball) are bookkeeping
; (ignored): an opponent's gain needs only (free ball), a restart only (dead ball), so no chain of
; help runs through an opponent's possession or a stoppage. A player who loses the ball in a tackle
; or a stoppage does not kick: `lose` adds only (free ball).
;
; What changes. (ball-in ball ?z) is the third of the pitch the ball is in (own, middle, final, from
; the study team's attacking direction), (spell ball ?s) the spell of play: a new one each time an
; other player gains the ball and at each stoppage. Neither is ever a precondition: they are the
; ball's state (definitions section 5), so a ball that comes back to a player in the same spell and
; third is a loop (passing back and forth), and one that advanced a third is not.
;
; Goals. (scored ?g) is the study team's goal ?g; the problem's goal is the goals the team scored
; (goal1 when it scored none). `score` needs the loose ball the shooter kicked, so the goal's causal
; chain runs back through the shooter's gain to the passes before it; `concede` (a goal against)
; needs only (free ball). Both leave the ball dead until `restart` with its set piece (kick-off,
; goal kick, free kick, corner, throw-in, penalty: gfootball's game_mode 1 to 6).
;
; @strips-int ignore-predicates: free dead spell
(define (domain football)
  (:requirements :strips :typing)
  (:types
    player - agent
    other ball zone spell goal set-piece - object)
  (:constants kick-off goal-kick free-kick corner throw-in penalty - set-piece)
  (:predicates
    (has ?p - player ?b - ball)
    (other-has ?o - other ?b - ball)
    (loose ?b - ball)
    (free ?b - ball)
    (dead ?b - ball)
    (ball-in ?b - ball ?z - zone)
    (spell ?b - ball ?s - spell)
    (next-spell ?s ?next - spell)
    (unscored ?g - goal)
    (scored ?g - goal))

  ; A player of the study team gains the loose ball (a pass received, an interception, a loose ball won).
  (:action gain
    :parameters (?p - player ?b - ball ?from ?to - zone)
    :precondition (loose ?b)
    :effect (and (has ?p ?b) (not (loose ?b)) (not (free ?b)) (not (ball-in ?b ?from)) (ball-in ?b ?to)))

  ; The ball leaves the player's feet into play: a pass, a shot, a clearance, a touch.
  (:action kick
    :parameters (?p - player ?b - ball ?from ?to - zone)
    :precondition (has ?p ?b)
    :effect (and (not (has ?p ?b)) (loose ?b) (free ?b) (not (ball-in ?b ?from)) (ball-in ?b ?to)))

  ; The player loses the ball without kicking it: tackled, or play stops (a foul, the whistle).
  (:action lose
    :parameters (?p - player ?b - ball ?from ?to - zone)
    :precondition (has ?p ?b)
    :effect (and (not (has ?p ?b)) (free ?b) (not (ball-in ?b ?from)) (ball-in ?b ?to)))

  ; Another player (an opponent, or a team-mate no agent controls) gains the ball: a new spell.
  (:action other-gain
    :parameters (?o - other ?b - ball ?from ?to - zone ?s ?next - spell)
    :precondition (and (free ?b) (spell ?b ?s) (next-spell ?s ?next))
    :effect (and (other-has ?o ?b) (not (loose ?b)) (not (free ?b)) (not (ball-in ?b ?from)) (ball-in ?b ?to)
                 (not (spell ?b ?s)) (spell ?b ?next)))

  ; The ball leaves another player into play.
  (:action other-kick
    :parameters (?o - other ?b - ball ?from ?to - zone)
    :precondition (other-has ?o ?b)
    :effect (and (not (other-has ?o ?b)) (loose ?b) (free ?b) (not (ball-in ?b ?from)) (ball-in ?b ?to)))

  ; Another player loses the ball without kicking it.
  (:action other-lose
    :parameters (?o - other ?b - ball ?from ?to - zone)
    :precondition (other-has ?o ?b)
    :effect (and (not (other-has ?o ?b)) (free ?b) (not (ball-in ?b ?from)) (ball-in ?b ?to)))

  ; The study team scores: the ball a player of the team (or anyone) left loose goes in.
  (:action score
    :parameters (?b - ball ?g - goal ?from ?to - zone ?s ?next - spell)
    :precondition (and (loose ?b) (unscored ?g) (spell ?b ?s) (next-spell ?s ?next))
    :effect (and (scored ?g) (not (unscored ?g)) (dead ?b) (not (loose ?b)) (not (free ?b))
                 (not (ball-in ?b ?from)) (ball-in ?b ?to) (not (spell ?b ?s)) (spell ?b ?next)))

  ; The other team scores.
  (:action concede
    :parameters (?b - ball ?from ?to - zone ?s ?next - spell)
    :precondition (and (free ?b) (spell ?b ?s) (next-spell ?s ?next))
    :effect (and (dead ?b) (not (loose ?b)) (not (free ?b)) (not (ball-in ?b ?from)) (ball-in ?b ?to)
                 (not (spell ?b ?s)) (spell ?b ?next)))

  ; Play stops with the ball loose (out of play, a foul, offside): game_mode leaves normal play.
  (:action stop
    :parameters (?b - ball ?from ?to - zone ?s ?next - spell)
    :precondition (and (free ?b) (spell ?b ?s) (next-spell ?s ?next))
    :effect (and (dead ?b) (not (loose ?b)) (not (free ?b)) (not (ball-in ?b ?from)) (ball-in ?b ?to)
                 (not (spell ?b ?s)) (spell ?b ?next)))

  ; Play restarts with a set piece (gfootball's game_mode while play stood still): the ball is loose.
  (:action restart
    :parameters (?b - ball ?piece - set-piece ?from ?to - zone)
    :precondition (dead ?b)
    :effect (and (loose ?b) (free ?b) (not (dead ?b)) (not (ball-in ?b ?from)) (ball-in ?b ?to))))
