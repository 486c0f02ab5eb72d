"""``python -m strips_int COMMAND ...``: the ``strips-int`` console script (:mod:`strips_int.cli`)."""

import sys

from strips_int.cli import main

if __name__ == "__main__":
    sys.exit(main())
