"""`python -m palace` runs the command line."""

import sys

from palace.ui.cli import main

sys.exit(main())
