"""CollabCapture episodes (``collab-episode/1``, :mod:`strips_int.grounders.collab`) lifted into
``domains/collab_capture.pddl``. ``GROUNDER`` is this game's entry in :mod:`strips_int.grounders`."""

from __future__ import annotations

from ..collab.grounder import CollabGrounder

GROUNDER = CollabGrounder("collab_capture", "--capture")
