"""Shared set-up for the network tests: a data directory of their own (with a short path, for Unix
sockets) and SSH client keys."""

from __future__ import annotations

import pytest

from tests.net.ssh_client import Keys, remove, short_home


@pytest.fixture
def home(monkeypatch):
    directory = short_home()
    monkeypatch.setenv("DOMINOES_HOME", str(directory))
    yield directory
    remove(directory)


@pytest.fixture
def keys(home):
    return Keys(home)
