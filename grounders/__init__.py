"""Grounders: lift raw environment logs into a PDDL problem and a strips_int trace.

Installed as ``strips_int.grounders``.
"""
