"""Many games: reading them through the grounder registry, analysing them on an engine (processes or Dask),
and writing a study's rows, tables, shards and merges.

Imports the analysis, the model and the grounder registry (never a particular grounder), never the command lines.
"""
