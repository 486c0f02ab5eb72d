"""``python -m strips_int.plot``: figures for papers (the command line is :mod:`strips_int.cli.plot`)."""

import sys

from strips_int.cli.plot import main

if __name__ == "__main__":
    sys.exit(main())
