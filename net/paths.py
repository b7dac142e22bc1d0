"""Where the network parts keep their files: under the data directory ($DOMINOES_HOME, or the
user data directory), beside the saves."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from saves.store import HOME_VARIABLE

HOST_KEY_NAME = "ssh_host_ed25519_key"


def data_dir() -> Path:
    home = os.environ.get(HOME_VARIABLE)
    return Path(home).expanduser() if home else Path(platformdirs.user_data_dir("dominoes", appauthor=False))


def default_host_key_path() -> Path:
    return data_dir() / HOST_KEY_NAME


def tables_dir() -> Path:
    """The runtime directory of the tables hosted on this machine: a Unix socket and a JSON sidecar each."""
    return data_dir() / "tables"
