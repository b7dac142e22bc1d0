"""The Textual application: its screens, widgets and styles, and the flow between matches. (The
command line that opens it is `cli`.)"""

from core.version import APP_VERSION as __version__

__all__ = ["__version__"]
