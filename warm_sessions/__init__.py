"""Warm sessions: how a server prepares one process with everything a session needs, and forks
each player's session from it in a few milliseconds instead of starting Python afresh.

`zygote` is the prepared process (and how it prepares: `hot_code`, `settled`, `immortal`,
`heap_holes`, `page_merging`, each a way a forked session copies fewer of the pages it shares);
`session_fork` is the door's side, a `net.session_launch.SessionLauncher` that forks from it. The
package sits between `net`, whose doors are handed a launcher, and the front ends in `cli`, which
choose one and name what a session runs; it imports neither `cli` nor anything that imports it.
"""
