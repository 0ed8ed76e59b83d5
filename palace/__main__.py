"""`python -m palace` runs the command line."""

from palace.ui.cli import entry

entry()
