"""``python -m strips_int.rc``: does a problem require cooperation? (the command line is :mod:`strips_int.cli.rc`)."""

import sys

from strips_int.cli.rc import main

if __name__ == "__main__":
    sys.exit(main())
