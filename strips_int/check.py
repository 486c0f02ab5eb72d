"""``python -m strips_int.check``: find who helped whom in recorded games or traces (the command line is :mod:`strips_int.cli.check`)."""

import sys

from strips_int.cli.check import main

if __name__ == "__main__":
    sys.exit(main())
