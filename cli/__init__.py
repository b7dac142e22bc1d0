"""The `dominoes` command line: one module per command (`simulate`, `tournament`, `saves`, `host`,
`join`, `serve-ssh`, `lobby`, and `new`/`--resume`, which open the interface).

Each command module has `add_parser(commands)` and `run(args) -> int`; a bad argument raises
`cli.usage.UsageError`, which `cli.main` prints in one line with exit status 2. Textual, asyncio,
the network and the save machinery are imported when a command runs, so `dominoes` alone starts
fast (bench/startup.py).
"""
