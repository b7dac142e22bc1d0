"""`dominoes serve-web --open` in a real browser: a visitor with no invitation chooses a name on the
front page's form, and the page goes on to the lobby as that name."""

from __future__ import annotations

import pytest

from tests.web.conftest import WebServer, wait_for_screen


@pytest.mark.parametrize("server", [["--open"]], indirect=True)
def test_a_visitor_chooses_a_name_and_plays_under_it(server: WebServer, new_browser):
    page = new_browser()
    response = page.goto(server.url)
    assert response is not None and response.status == 200
    assert page.locator("h1").inner_text() == "Choose a name"
    page.fill("#field", "Ann <b>")
    page.click("button[type=submit]")
    page.wait_for_url(f"{server.url}/")
    wait_for_screen(page, "signed in as Ann <b>")
    other = new_browser()
    other.goto(server.url)
    other.fill("#field", "ANN <B>")
    other.click("button[type=submit]")
    assert other.locator(".refused").inner_text() == "ANN <B> is taken; choose another."
    assert other.locator("#field").input_value() == "ANN <B>"  # kept, to be edited
    assert not page.console_errors  # type: ignore[attr-defined]
