"""The widgets of the table: the hand, the board tree, the scorepad, the move log, the footer.

Each is imported from its own module, so a screen loads only the widgets it shows (the title
screen's first frame waits for none of the table's).
"""
