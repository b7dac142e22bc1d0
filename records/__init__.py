"""The record of finished matches: every player's results, a rating per game, and accuracy over time.

The saves are the truth; the record is an index built from them, an SQLite database in the data
directory (`record.sqlite`), which can always be rebuilt from the saves (`dominoes stats --rebuild`).

    placing      each seat's place in a finished match
    eligibility  whether a match counts for rating (`counts_for_rating`)
    entry        a saved match as the record holds it: seats, places, scores, what counts
    sources      which save folders a record is built from (a player's own, a server's)
    database     the SQLite index: brought up to date from the saves, rebuilt when damaged
    ratings      openskill (Plackett-Luce) ratings per game; the bot levels' fixed ratings
    accuracy     a finished review's mean loss per decision and its kinds of mistake
    summary      a player's statistics per game, as plain data (`dominoes stats --json`)
    text         those statistics in words
    leaderboard  a server's top players per game, and what each made public
    measure      the bot levels' ratings measured from duplicate tournaments

Dependencies: records -> saves -> core. No Textual, no network code.
"""
