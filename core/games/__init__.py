"""One module per game: chicken_foot, doubles, moon."""
