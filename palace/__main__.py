"""`python -m palace` runs the command line."""

import sys

from palace.cli import main

sys.exit(main())
