"""Figures of interdependences for papers (matplotlib). Installed as ``strips_int.visualize``."""
