"""The model: what a game is in STRIPS terms (facts, ground actions, problems, domains, traces) and executing it.

Imports nothing of strips_int but :mod:`strips_int.errors` and :mod:`strips_int.files`.
"""
