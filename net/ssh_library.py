"""asyncssh, imported without the deprecation warnings it sets off in the cryptography package
(its DSA support, which the server never offers): a warning line on a server's first line of
output, where `serve-web` and `serve-ssh` say where they are, is noise to the owner and breaks
anything that reads that line."""

from __future__ import annotations

import warnings

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=r"DSA is deprecated", module=r"asyncssh\.")
    import asyncssh

__all__ = ["asyncssh"]
