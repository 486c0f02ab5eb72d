; Hanabi (hanab.live's rules) for strips_int: who helped whom when the help is information.
;
; Cards. Every card is an object named by its place in the deck and its identity (c12-red3: the
; 13th card dealt, a red 3); its identity is static, (card-suit) and (card-rank). The deck is the
; chain (deck-next) from (deck-top) to (deck-last). A player holds cards in a hand object (hand1
; is player1's, (holds player1 hand1)): environment actions name hands, since an action that
; names a player is that player's (definitions section 1).
;
; Knowledge. A player never sees their own cards. What the clues told them of a card is three
; facts of the card in their hand: (touched) a clue touched it, (suit-known) and (rank-known) the
; clues (positive and negative) leave one suit, one rank. A clue is one step of its giver, which
; spends a token and adds (told hand token); environment steps at the same time then add the
; knowledge it gave (note-touch, learn-suit, learn-rank). The grounder decides which: the
; possibilities of each card of the hand are narrowed by whether the clue touched it, as the
; variant's suits are touched; no counting of visible or discarded cards, no conventions. The
; clue that completes a piece of knowledge gives it (where several clues narrow it together, as
; negative ones do, the last). Knowledge is not STRIPS-decidable here, so the domain lets a clue
; teach any card of that hand.
;
; Plays. A play is one step of its player, of one of five kinds by what they knew of the card:
; play-informed (suit and rank), play-suit-known, play-rank-known, play-touched (a clue touched it,
; neither is known: variants), play-blind (nothing). Each needs exactly that knowledge, so each
; clue that gave it is the giver of an interdependence with the play (through its learn step);
; a blind play has none. A finesse, where a blind play is informed by inference from a clue to
; someone else, is out of scope: it is a blind play. Whether the card fits is an environment
; step: fit (the firework grows), fit-five (a 5 that also gives back a clue token), fail-early or
; fail-duplicate (a strike; the card is discarded).
;
; Clue tokens. Each token is an object: token1..token8 are there at the start, and each token
; given back (a discard, a played 5 below 8 tokens) is a new one, so a clue that spends it is
; linked to the discard or the 5 that gave it back (the help of making a clue possible), and no
; token comes back "unchanged" (definitions section 5). A clue spends the token made available last.
; The cap of 8 tokens is a count, checked by the grounder, not here.
;
; Fireworks. (firework red r3) means the red firework reached 3; each suit starts at r0. The goal
; is every (firework suit rank) of rank 1 to 5: those that hold at the end are the fireworks
; built (partial progress counts). `firework` is ignored for interdependences: playing on a
; partner's card builds on shared progress, it is not help (so only the play itself is linked
; to its fit). The grounder ends the game at the third strike, after the final round that
; follows the last draw, at the full score, or at an end-game action; none is a fact here.
;
; The deck. The grounder knows the whole shuffled deck (the game's file records it), so the
; problem holds every card's identity and the deck's order; the players' actions never read it.
;
; @strips-int ignore-predicates: firework
(define (domain hanabi)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types
    player - agent
    card hand token strike value - object
    hue rank - value)
  (:constants r0 r1 r2 r3 r4 r5 - rank)
  (:predicates
    (holds ?p - player ?h - hand)
    (card-suit ?c - card ?s - hue)
    (card-rank ?c - card ?r - rank)
    (rank-after ?prev ?r - rank)
    (deck-top ?c - card)
    (deck-next ?c ?next - card)
    (deck-last ?c - card)
    (in-hand ?c - card ?h - hand)
    (in-play ?c - card)
    (played ?c - card)
    (discarded ?c - card)
    (touched ?c - card ?h - hand)
    (suit-known ?c - card ?h - hand)
    (rank-known ?c - card ?h - hand)
    (told ?h - hand ?t - token)
    (available ?t - token)
    (unissued ?t - token)
    (firework ?s - hue ?r - rank)
    (strike-left ?k - strike)
    (struck ?k - strike))

  ; A colour or rank clue to another player's hand, paid with an available token.
  (:action clue
    :parameters (?giver ?receiver - player ?h - hand ?v - value ?t - token)
    :precondition (and (holds ?receiver ?h) (available ?t) (not (= ?giver ?receiver)))
    :effect (and (told ?h ?t) (not (available ?t))))

  ; Environment: what a clue told the hand about one of its cards.
  (:action note-touch
    :parameters (?c - card ?h - hand ?t - token)
    :precondition (and (told ?h ?t) (in-hand ?c ?h))
    :effect (touched ?c ?h))

  (:action learn-suit
    :parameters (?c - card ?h - hand ?t - token)
    :precondition (and (told ?h ?t) (in-hand ?c ?h))
    :effect (suit-known ?c ?h))

  (:action learn-rank
    :parameters (?c - card ?h - hand ?t - token)
    :precondition (and (told ?h ?t) (in-hand ?c ?h))
    :effect (rank-known ?c ?h))

  ; Plays, by what the player knew of the card.
  (:action play-informed
    :parameters (?p - player ?c - card ?h - hand)
    :precondition (and (holds ?p ?h) (in-hand ?c ?h) (suit-known ?c ?h) (rank-known ?c ?h))
    :effect (and (in-play ?c) (not (in-hand ?c ?h))))

  (:action play-suit-known
    :parameters (?p - player ?c - card ?h - hand)
    :precondition (and (holds ?p ?h) (in-hand ?c ?h) (suit-known ?c ?h))
    :effect (and (in-play ?c) (not (in-hand ?c ?h))))

  (:action play-rank-known
    :parameters (?p - player ?c - card ?h - hand)
    :precondition (and (holds ?p ?h) (in-hand ?c ?h) (rank-known ?c ?h))
    :effect (and (in-play ?c) (not (in-hand ?c ?h))))

  (:action play-touched
    :parameters (?p - player ?c - card ?h - hand)
    :precondition (and (holds ?p ?h) (in-hand ?c ?h) (touched ?c ?h))
    :effect (and (in-play ?c) (not (in-hand ?c ?h))))

  (:action play-blind
    :parameters (?p - player ?c - card ?h - hand)
    :precondition (and (holds ?p ?h) (in-hand ?c ?h))
    :effect (and (in-play ?c) (not (in-hand ?c ?h))))

  ; A discard gives back a clue token: a new one.
  (:action discard
    :parameters (?p - player ?c - card ?h - hand ?t - token)
    :precondition (and (holds ?p ?h) (in-hand ?c ?h) (unissued ?t))
    :effect (and (discarded ?c) (available ?t) (not (in-hand ?c ?h)) (not (unissued ?t))))

  ; Environment: the played card lands on its firework, or is a strike.
  (:action fit
    :parameters (?c - card ?s - hue ?r ?prev - rank)
    :precondition (and (in-play ?c) (card-suit ?c ?s) (card-rank ?c ?r) (rank-after ?prev ?r)
                       (firework ?s ?prev) (not (firework ?s ?r)))
    :effect (and (firework ?s ?r) (played ?c) (not (in-play ?c))))

  (:action fit-five
    :parameters (?c - card ?s - hue ?t - token)
    :precondition (and (in-play ?c) (card-suit ?c ?s) (card-rank ?c r5) (firework ?s r4)
                       (not (firework ?s r5)) (unissued ?t))
    :effect (and (firework ?s r5) (played ?c) (available ?t) (not (in-play ?c)) (not (unissued ?t))))

  (:action fail-early
    :parameters (?c - card ?s - hue ?r ?prev - rank ?k - strike)
    :precondition (and (in-play ?c) (card-suit ?c ?s) (card-rank ?c ?r) (rank-after ?prev ?r)
                       (not (firework ?s ?prev)) (strike-left ?k))
    :effect (and (discarded ?c) (struck ?k) (not (in-play ?c)) (not (strike-left ?k))))

  (:action fail-duplicate
    :parameters (?c - card ?s - hue ?r - rank ?k - strike)
    :precondition (and (in-play ?c) (card-suit ?c ?s) (card-rank ?c ?r) (firework ?s ?r) (strike-left ?k))
    :effect (and (discarded ?c) (struck ?k) (not (in-play ?c)) (not (strike-left ?k))))

  ; Environment: after a play or a discard, the player draws the top card of the deck.
  (:action draw
    :parameters (?c ?next - card ?h - hand)
    :precondition (and (deck-top ?c) (deck-next ?c ?next))
    :effect (and (in-hand ?c ?h) (deck-top ?next) (not (deck-top ?c))))

  (:action draw-last
    :parameters (?c - card ?h - hand)
    :precondition (and (deck-top ?c) (deck-last ?c))
    :effect (and (in-hand ?c ?h) (not (deck-top ?c))))
)
