"""The PDDL domains shipped with strips_int (installed as ``strips_int.domains``, package data)."""
