"""`python -m cli`: the same as the `dominoes` command (used to start child commands)."""

import sys

from cli.main import main

sys.exit(main())
