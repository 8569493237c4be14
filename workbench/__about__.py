"""The package version, kept apart so build tools can read it without importing the package."""

__version__ = "0.1.0"
