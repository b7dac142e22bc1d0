"""Network play: the wire protocol, the table server that holds a match, and the client library.

Dependencies point one way: `tui -> net -> saves -> core`; nothing here imports Textual.
"""
