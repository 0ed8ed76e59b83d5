"""palace: a terminal agent whose long-term memory is one markdown file."""

__version__ = "0.1.0"
