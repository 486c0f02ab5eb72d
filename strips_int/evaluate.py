"""``python -m strips_int.evaluate``: analyse many games and write paper tables (the command line is :mod:`strips_int.cli.evaluate`)."""

import sys

from strips_int.cli.evaluate import main

if __name__ == "__main__":
    sys.exit(main())
