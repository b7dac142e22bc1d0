"""The Textual application and the `dominoes` command line."""

from core.version import APP_VERSION as __version__

__all__ = ["__version__"]
