"""The package version: one line, read by hatch at build time and by every face at run time."""

__version__ = "0.4.0"
