"""The web door's forms: where a request comes from, and a check that only this site's own page can
send a form.

A form that signs a browser in (an invite's confirmation, an open server's sign-up) must be the
player's own doing on this site: another site's page could post the same fields. So each form
carries a random check in a hidden field and, in a cookie of its own (HttpOnly, SameSite=Strict,
for the form's path alone), the same check: a page of another site can send neither. On top, the
POST must say it comes from this site (its Origin's scheme, host and port, and Sec-Fetch-Site where
the browser sends it).
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

CHECK_MAX_AGE = 600  # seconds a form's check lasts: the time to fill it in
DEFAULT_PORTS = {"http": 80, "https": 443}


def over_https(request: web.Request) -> bool:
    """Served over https, directly or behind a proxy that says so (X-Forwarded-Proto or Forwarded)."""
    if request.secure or request.headers.get("X-Forwarded-Proto", "").strip().lower() == "https":
        return True
    return "proto=https" in request.headers.get("Forwarded", "").replace(" ", "").lower()


def origin_of(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an http(s) URL or Origin, the port filled in; None for anything else."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def own_origins(request: web.Request, base_url: str = "") -> set[tuple[str, str, int]]:
    """The origins this server's pages have: as the request reached it (behind a proxy, as the
    proxy says), and that of the address its links begin with."""
    scheme = "https" if over_https(request) else "http"
    host = request.headers.get("X-Forwarded-Host", "").split(",")[0].strip() or request.host
    found = {origin_of(f"{scheme}://{host}"), origin_of(base_url) if base_url else None}
    return {origin for origin in found if origin is not None}


def same_origin(request: web.Request, base_url: str = "", required: bool = False) -> bool:
    """A browser's request from a page of this server: the Origin's scheme, host and port are this
    server's. A request with no Origin at all is not a browser page's (a browser always sends one on
    a socket or a form), and passes unless `required`."""
    origin = request.headers.get("Origin")
    if origin is None:
        return not required
    return origin_of(origin) in own_origins(request, base_url)


def new_check() -> str:
    return secrets.token_urlsafe(24)


def give_check(response: web.StreamResponse, request: web.Request, cookie: str, path: str, check: str) -> None:
    """The cookie that holds a form's check, sent back only to the form's own path."""
    response.set_cookie(
        cookie,
        check,
        max_age=CHECK_MAX_AGE,
        path=path,
        httponly=True,
        samesite="Strict",
        secure=over_https(request),
    )


def from_this_page(request: web.Request, form: Any, cookie: str, base_url: str) -> bool:
    """Whether a form's POST came from the page this site gave: its check is the cookie's, and the
    browser says it comes from this site."""
    check, kept = form.get("check"), request.cookies.get(cookie, "")
    site = request.headers.get("Sec-Fetch-Site", "same-origin")
    return (
        isinstance(check, str)
        and bool(kept)
        and hmac.compare_digest(check.encode(), kept.encode())
        and site == "same-origin"
        and same_origin(request, base_url, required=True)
    )


async def read_form(request: web.Request) -> Any:
    """The POSTed form's fields, or None if the body is larger than the server takes."""
    try:
        return await request.post()
    except web.HTTPRequestEntityTooLarge:
        return None
