"""Planner integration (unified-planning): required cooperation and joint plans.

Installed as ``strips_int.planners``.
"""
