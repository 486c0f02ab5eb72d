; Overcooked (Carroll et al. 2019) for strips_int.
;
; Agents stand on floor cells and interact with an adjacent station (counter,
; pot, dispenser, serving window); orientation is not modelled. Every onion,
; tomato, dish and soup is its own object, so passes can be followed: items
; start (fresh) and leave their dispenser when taken. The chain
; ingredient -> pot -> cooking -> ready soup -> dish -> delivery is made of
; causal links, so an onion that ends in a delivered soup is goal-reaching.
;
; Both rule sets: with (auto-cook) in the initial state a pot starts cooking
; by itself at three ingredients (old Overcooked); without it an agent starts
; it by interacting (overcooked-ai >= 1.0, recipes of 1-3 ingredients).
; Cooking progress is environment actions (no agent parameter).
;
; Bodies block cells: (occupied ?c) keeps two agents apart, and is ignored
; for interdependences, like a counter or pot that someone emptied.
;
; JaxMARL's OvercookedV2 adds ingredient kinds by number (an ingredient's
; (of-kind ?i ?k), a pile's (dispenses ?d ?k)), a recipe drawn by the
; environment ((order ?r), drawn again by draw-recipe) and what the agents
; know of it: (knows ?a ?r) comes from reading a recipe indicator in view, or
; a button indicator another agent lit; an ingredient that the known order
; needs, put into the pot by the agent who knows it, is the -informed
; variant of start-soup and add-ingredient, so a partner's lighting of the
; button links to the soup it informed. Reading is looking, not a sub-task.
;
; @strips-int navigation-actions: move read-recipe read-button
; @strips-int position-predicates: on in-pot
; @strips-int ignore-predicates: occupied empty pot-empty
(define (domain overcooked)
  (:requirements :strips :typing :negative-preconditions)
  (:types
    agent cell station item num - object
    counter pot dispenser window indicator button - station
    onion-dispenser tomato-dispenser dish-dispenser ingredient-dispenser - dispenser
    ingredient dish soup - item
    onion tomato - ingredient
    kind recipe - object)
  (:constants n0 n1 n2 n3 - num)
  (:predicates
    (at ?a - agent ?c - cell)
    (occupied ?c - cell)
    (adjacent ?c ?d - cell)
    (next-to ?c - cell ?s - station)
    (hand-empty ?a - agent)
    (holding ?a - agent ?i - item)
    (fresh ?i - item)
    (on ?i - item ?k - counter)
    (empty ?k - counter)
    (pot-empty ?p - pot)
    (in-pot ?s - soup ?p - pot)
    (size ?s - soup ?n - num)
    (succ ?n ?m - num)
    (in-soup ?i - ingredient ?s - soup)
    (auto-cook)
    (cooking ?s - soup)
    (ready ?s - soup)
    (plated ?s - soup)
    (delivered ?s - soup)
    (of-kind ?i - ingredient ?k - kind)
    (dispenses ?d - ingredient-dispenser ?k - kind)
    (needs ?r - recipe ?k - kind)
    (order ?r - recipe)
    (in-view ?c - cell ?s - station)
    (lit ?b - button)
    (knows ?a - agent ?r - recipe))

  (:action move
    :parameters (?a - agent ?from ?to - cell)
    :precondition (and (at ?a ?from) (adjacent ?from ?to) (not (occupied ?to)))
    :effect (and (at ?a ?to) (not (at ?a ?from)) (occupied ?to) (not (occupied ?from))))

  (:action take-onion
    :parameters (?a - agent ?o - onion ?d - onion-dispenser ?c - cell)
    :precondition (and (at ?a ?c) (next-to ?c ?d) (hand-empty ?a) (fresh ?o))
    :effect (and (holding ?a ?o) (not (hand-empty ?a)) (not (fresh ?o))))

  (:action take-tomato
    :parameters (?a - agent ?o - tomato ?d - tomato-dispenser ?c - cell)
    :precondition (and (at ?a ?c) (next-to ?c ?d) (hand-empty ?a) (fresh ?o))
    :effect (and (holding ?a ?o) (not (hand-empty ?a)) (not (fresh ?o))))

  (:action take-dish
    :parameters (?a - agent ?d - dish ?s - dish-dispenser ?c - cell)
    :precondition (and (at ?a ?c) (next-to ?c ?s) (hand-empty ?a) (fresh ?d))
    :effect (and (holding ?a ?d) (not (hand-empty ?a)) (not (fresh ?d))))

  ; OvercookedV2: a pile of one ingredient kind.
  (:action take-ingredient
    :parameters (?a - agent ?i - ingredient ?d - ingredient-dispenser ?k - kind ?c - cell)
    :precondition (and (at ?a ?c) (next-to ?c ?d) (hand-empty ?a) (fresh ?i) (dispenses ?d ?k) (of-kind ?i ?k))
    :effect (and (holding ?a ?i) (not (hand-empty ?a)) (not (fresh ?i))))

  ; Put what one holds on an empty counter.
  (:action put
    :parameters (?a - agent ?i - item ?k - counter ?c - cell)
    :precondition (and (at ?a ?c) (next-to ?c ?k) (holding ?a ?i) (empty ?k))
    :effect (and (on ?i ?k) (not (empty ?k)) (hand-empty ?a) (not (holding ?a ?i))))

  ; Pick an item up from a counter.
  (:action take
    :parameters (?a - agent ?i - item ?k - counter ?c - cell)
    :precondition (and (at ?a ?c) (next-to ?c ?k) (hand-empty ?a) (on ?i ?k))
    :effect (and (holding ?a ?i) (not (hand-empty ?a)) (not (on ?i ?k)) (empty ?k)))

  ; The first ingredient into an empty pot starts a new soup.
  (:action start-soup
    :parameters (?a - agent ?i - ingredient ?s - soup ?p - pot ?c - cell)
    :precondition (and (at ?a ?c) (next-to ?c ?p) (holding ?a ?i) (pot-empty ?p) (fresh ?s))
    :effect (and (in-pot ?s ?p) (not (pot-empty ?p)) (not (fresh ?s)) (size ?s n1) (in-soup ?i ?s)
                 (hand-empty ?a) (not (holding ?a ?i))))

  (:action add-ingredient
    :parameters (?a - agent ?i - ingredient ?s - soup ?p - pot ?c - cell ?n ?m - num)
    :precondition (and (at ?a ?c) (next-to ?c ?p) (holding ?a ?i) (in-pot ?s ?p) (size ?s ?n) (succ ?n ?m)
                       (not (cooking ?s)) (not (ready ?s)))
    :effect (and (size ?s ?m) (not (size ?s ?n)) (in-soup ?i ?s) (hand-empty ?a) (not (holding ?a ?i))))

  ; OvercookedV2: an ingredient of the order the agent knows, which the order needs.
  (:action start-soup-informed
    :parameters (?a - agent ?i - ingredient ?s - soup ?p - pot ?c - cell ?r - recipe ?k - kind)
    :precondition (and (at ?a ?c) (next-to ?c ?p) (holding ?a ?i) (pot-empty ?p) (fresh ?s)
                       (knows ?a ?r) (order ?r) (needs ?r ?k) (of-kind ?i ?k))
    :effect (and (in-pot ?s ?p) (not (pot-empty ?p)) (not (fresh ?s)) (size ?s n1) (in-soup ?i ?s)
                 (hand-empty ?a) (not (holding ?a ?i))))

  (:action add-ingredient-informed
    :parameters (?a - agent ?i - ingredient ?s - soup ?p - pot ?c - cell ?n ?m - num ?r - recipe ?k - kind)
    :precondition (and (at ?a ?c) (next-to ?c ?p) (holding ?a ?i) (in-pot ?s ?p) (size ?s ?n) (succ ?n ?m)
                       (not (cooking ?s)) (not (ready ?s))
                       (knows ?a ?r) (order ?r) (needs ?r ?k) (of-kind ?i ?k))
    :effect (and (size ?s ?m) (not (size ?s ?n)) (in-soup ?i ?s) (hand-empty ?a) (not (holding ?a ?i))))

  ; New rules: an empty-handed agent starts the cooking.
  (:action start-cooking
    :parameters (?a - agent ?s - soup ?p - pot ?c - cell)
    :precondition (and (at ?a ?c) (next-to ?c ?p) (hand-empty ?a) (in-pot ?s ?p) (not (auto-cook))
                       (not (cooking ?s)) (not (ready ?s)))
    :effect (cooking ?s))

  ; Old rules: a pot with three ingredients starts cooking by itself.
  (:action auto-cook
    :parameters (?s - soup ?p - pot)
    :precondition (and (auto-cook) (in-pot ?s ?p) (size ?s n3) (not (cooking ?s)) (not (ready ?s)))
    :effect (cooking ?s))

  (:action finish-cooking
    :parameters (?s - soup ?p - pot)
    :precondition (and (in-pot ?s ?p) (cooking ?s))
    :effect (and (ready ?s) (not (cooking ?s))))

  ; A dish takes a ready soup out of the pot. (plated ?s), which nothing needs,
  ; sets a plated soup apart from one in its pot (its state, definitions section 5), so
  ; a soup plated by one agent and handed back to its cook is not a loop.
  (:action plate-soup
    :parameters (?a - agent ?d - dish ?s - soup ?p - pot ?c - cell)
    :precondition (and (at ?a ?c) (next-to ?c ?p) (holding ?a ?d) (in-pot ?s ?p) (ready ?s))
    :effect (and (holding ?a ?s) (plated ?s) (not (holding ?a ?d)) (not (in-pot ?s ?p)) (pot-empty ?p)))

  ; Only a plated soup can be held, and only a ready one can be plated, so
  ; (ready ?s) is not needed here: it would repeat every plating link.
  (:action deliver
    :parameters (?a - agent ?s - soup ?w - window ?c - cell)
    :precondition (and (at ?a ?c) (next-to ?c ?w) (holding ?a ?s))
    :effect (and (delivered ?s) (hand-empty ?a) (not (holding ?a ?s))))

  ; OvercookedV2's recipe indicators. A plain one always shows the order; a
  ; button shows it while lit (an empty-handed interaction lights it, at a
  ; cost, for a while). An agent reads what is in its view.
  (:action activate
    :parameters (?a - agent ?b - button ?c - cell)
    :precondition (and (at ?a ?c) (next-to ?c ?b) (hand-empty ?a))
    :effect (lit ?b))

  (:action button-off
    :parameters (?b - button)
    :precondition (lit ?b)
    :effect (not (lit ?b)))

  (:action read-recipe
    :parameters (?a - agent ?i - indicator ?r - recipe ?c - cell)
    :precondition (and (at ?a ?c) (in-view ?c ?i) (order ?r))
    :effect (knows ?a ?r))

  (:action read-button
    :parameters (?a - agent ?b - button ?r - recipe ?c - cell)
    :precondition (and (at ?a ?c) (in-view ?c ?b) (lit ?b) (order ?r))
    :effect (knows ?a ?r))

  ; The environment draws the order again (after a correct delivery, when set to).
  (:action draw-recipe
    :parameters (?old ?new - recipe)
    :precondition (order ?old)
    :effect (and (not (order ?old)) (order ?new)))
)
