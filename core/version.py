"""The application's version, shown by `dominoes --version` and written into every save file."""

APP_VERSION = "0.1.0"
