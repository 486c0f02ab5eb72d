"""``python -m strips_int.merge``: merge the output folders of evaluate --shard runs (the command line is :mod:`strips_int.cli.merge`)."""

import sys

from strips_int.cli.merge import main

if __name__ == "__main__":
    sys.exit(main())
