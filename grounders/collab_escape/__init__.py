"""CollabEscape episodes (``collab-episode/1``, :mod:`strips_int.grounders.collab`) lifted into
``domains/collab_escape.pddl``. ``GROUNDER`` is this game's entry in :mod:`strips_int.grounders`."""

from __future__ import annotations

from ..collab.grounder import CollabGrounder

GROUNDER = CollabGrounder("collab_escape", "--escape")
