"""The web door's view of the room's book (`net.accounts`): which browser sessions it still allows.

The door asks on every request, and for every session in play a few times a second, so the book is
read again only when its file changes (its size, time or inode), as the SSH door's ban watch does.
A session is refused, and ended if it is in play, when its name is banned: kept in the book, so
across restarts, whether or not the server is open. One that began with a name chosen on an open
server's sign-up page is refused too once the book no longer holds that name as it was chosen (let
go for want of a finished match, renamed, or taken since by someone else): a browser's session is
that name's only credential, and must never pass to another player of the same name. A book that
cannot be read keeps what was read last: a damaged file changes nobody's standing.
"""

from __future__ import annotations

from net.accounts import BANNED, Book, RoomBook, canonical
from net.web_auth import Session


class RoomView:
    def __init__(self, book: RoomBook) -> None:
        self.book = book
        self._seen: tuple[int, int, int] | None = None
        self._bans: set[str] = set()
        self._chosen: dict[str, float] = {}  # canonical browser name -> when it was chosen

    def refresh(self) -> None:
        """Read the book again if its file changed since it was last read."""
        seen = self.book.mark()
        if seen == self._seen:
            return
        self._seen = seen
        try:
            book = self.book.read() if seen is not None else Book()
        except (OSError, ValueError):
            return  # read again once it changes
        self._bans = book.bans
        self._chosen = {canonical(account.name): account.created for account in book.accounts if account.browser}

    def refusal(self, session: Session) -> str | None:
        """Why the room no longer allows this session (one line), or None."""
        self.refresh()
        form = canonical(session.player)
        if form in self._bans:
            return BANNED
        if session.signed_up:
            chosen = self._chosen.get(form)
            if chosen is None or chosen > session.began:
                days = f"{self.book.limits.expire_days:g} days"
                return (
                    f"the name {session.player} is no longer yours (a name that finishes no match in {days} is let go)"
                )
        return None
