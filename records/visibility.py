"""What a player on a server shows of their record: nothing ("private", the default), their name
and ratings on the lobby's leaderboard ("listed"), or their whole record to whoever opens it from
there ("public"). Their own line on the leaderboard is always shown to themselves."""

VISIBILITIES = ("private", "listed", "public")
