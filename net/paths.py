"""Where the network parts keep their files: under the data directory ($DOMINOES_HOME, or the
user data directory), beside the saves.

A served session (a player who came in over SSH, or another front door) runs with its player's own
folder as the data directory, and the server's data directory in $DOMINOES_SERVER_HOME: the tables
of the lobby, and their saves, are the server's, shared by every session.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from saves.store import HOME_VARIABLE

HOST_KEY_NAME = "ssh_host_ed25519_key"
SERVER_HOME_VARIABLE = "DOMINOES_SERVER_HOME"  # set in served sessions: the server's data directory
SERVED_VARIABLE = "DOMINOES_SERVED"  # "1" in served sessions: no screenshots into the server's account


def data_dir() -> Path:
    home = os.environ.get(HOME_VARIABLE)
    return Path(home).expanduser() if home else Path(platformdirs.user_data_dir("dominoes", appauthor=False))


def server_dir() -> Path:
    """The server's data directory in a served session; elsewhere the data directory itself."""
    home = os.environ.get(SERVER_HOME_VARIABLE)
    return Path(home).expanduser() if home else data_dir()


def is_served() -> bool:
    return os.environ.get(SERVED_VARIABLE) == "1"


def default_host_key_path() -> Path:
    return data_dir() / HOST_KEY_NAME


def tables_dir() -> Path:
    """The runtime directory of the tables hosted on this machine: a Unix socket and a JSON sidecar each."""
    return server_dir() / "tables"
