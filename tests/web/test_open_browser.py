"""`dominoes serve-web --open` in a real browser: a visitor with no invitation chooses a name on the
front page's form, and the page goes on to the lobby as that name."""

from __future__ import annotations

import re

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


@pytest.mark.parametrize("server", [["--open", "--ssh-address", "games.example:2222"]], indirect=True)
def test_the_key_page_shows_a_link_code_and_the_command_that_logs_in_with_the_key(server: WebServer, new_browser):
    page = new_browser()
    page.goto(server.url)
    page.fill("#field", "Zoé")
    page.click("button[type=submit]")
    page.wait_for_url(f"{server.url}/")
    response = page.goto(f"{server.url}/key")
    assert response is not None and response.status == 200
    assert page.locator("h1").inner_text() == "Tie an SSH key to Zoé"
    assert re.fullmatch(r"link(-[2-9a-hjkmnp-z]{4}){3}", page.locator(".code").inner_text())
    assert "(ssh -p 2222 games.example), and on its welcome screen type this code" in page.locator("main").inner_text()
    assert not page.console_errors  # type: ignore[attr-defined]
