"""The analysis: causal links, interdependencies and their categories, triggers, required help, blocks, self-help
cost, the report, RC.

Pure functions of an executed trace (a :class:`~strips_int.model.execution.Run`) and its domain; imports the
model and the planners, never the batch layer, the command lines or a grounder.
"""
