"""Save files: the msgpack format, its validation, and the atomic store (see DESIGN.md, "saves")."""
