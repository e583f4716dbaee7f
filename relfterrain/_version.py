"""The package's version, in a module of its own so that submodules can read
it without importing the package's ``__init__`` (which imports them)."""

__version__ = "0.1.0"
