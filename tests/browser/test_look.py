"""The settings bar (S-2) and the accessibility of the look: sliders change the computed
style and 50 is neutral, settings persist, the four-colour deck, user preferences, WCAG AA
text contrast at the default settings, and layouts from 360 px phones to desktop."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import Live, Tables, open_gear, shot, visit_table

pytestmark = pytest.mark.browser

IDENTITY = "1 0 0 0 0 0 1 0 0 0 0 0 1 0 0 0 0 0 1 0"

LOOK = """() => ({
  filter: getComputedStyle(document.documentElement).filter,
  grain: getComputedStyle(document.getElementById('grain-overlay')).opacity,
  matrix: document.getElementById('cardavia-temperature-matrix').getAttribute('values'),
})"""


def look(page: Page) -> dict[str, str]:
    value: dict[str, str] = page.evaluate(LOOK)
    return value


def test_each_slider_changes_the_look_and_50_is_neutral(page: Page, live: Live) -> None:
    page.goto(f"{live.http}/")
    open_gear(page)
    neutral = look(page)
    assert neutral == {"filter": "none", "grain": "0.05", "matrix": IDENTITY}
    for key in ("contrast", "grain", "temperature"):
        assert page.input_value(f'[data-testid="{key}"]') == "50"

    page.fill('[data-testid="contrast"]', "80")
    assert look(page)["filter"] == "contrast(1.3)"
    page.fill('[data-testid="contrast"]', "0")
    assert look(page)["filter"] == "contrast(0.5)"
    page.fill('[data-testid="contrast"]', "50")
    assert look(page) == neutral

    page.fill('[data-testid="grain"]', "100")
    assert float(look(page)["grain"]) == pytest.approx(0.3)
    page.fill('[data-testid="grain"]', "0")
    assert look(page)["grain"] == "0"
    page.fill('[data-testid="grain"]', "50")
    assert look(page) == neutral

    page.fill('[data-testid="temperature"]', "100")
    warm = look(page)
    assert "url(" in warm["filter"] and warm["matrix"] != IDENTITY
    red, blue = float(warm["matrix"].split()[0]), float(warm["matrix"].split()[12])
    assert red > 1 > blue  # warmer: more red, less blue
    page.fill('[data-testid="temperature"]', "0")
    cool = look(page)["matrix"].split()
    assert float(cool[0]) < 1 < float(cool[12])
    page.fill('[data-testid="temperature"]', "50")
    assert look(page) == neutral

    # the keyboard moves a slider too, and its value is announced
    page.focus('[data-testid="contrast"]')
    page.keyboard.press("ArrowRight")
    assert page.get_attribute('[data-testid="contrast"]', "aria-valuetext") == "51%"
    assert look(page)["filter"] == "contrast(1.01)"


def test_settings_persist_per_browser(page: Page, live: Live, tables: Tables) -> None:
    page.goto(f"{live.http}/")
    open_gear(page)
    page.fill('[data-testid="contrast"]', "70")
    page.fill('[data-testid="grain"]', "20")
    page.fill('[data-testid="temperature"]', "65")
    page.check('[data-testid="four-colour"]')
    page.reload()
    open_gear(page)
    assert page.input_value('[data-testid="contrast"]') == "70"
    assert page.inner_text("#contrast-value") == "70%"
    assert look(page)["filter"] == "contrast(1.2) url(\"#cardavia-temperature\")"
    assert float(look(page)["grain"]) == pytest.approx(0.02)
    # the same look on the other views
    visit_table(page, live, tables.playing_guandan)
    page.wait_for_selector("#hand button.card")
    assert look(page)["filter"].startswith("contrast(1.2)")
    club = page.evaluate("() => getComputedStyle(document.documentElement).getPropertyValue('--suit-c').trim()")
    diamond = page.evaluate("() => getComputedStyle(document.documentElement).getPropertyValue('--suit-d').trim()")
    assert club != "#111111" and diamond != "#c1121f"  # four colours: green clubs, blue diamonds
    shot(page, "table-guandan-settings-changed")
    page.goto(f"{live.http}/rules/runfast")
    assert page.input_value('[data-testid="temperature"]') == "65"


def test_user_preferences_are_honoured(page: Page, live: Live, tables: Tables) -> None:
    page.emulate_media(reduced_motion="reduce")
    visit_table(page, live, tables.playing_guandan)
    page.wait_for_selector("#hand button.card")
    duration = page.evaluate(
        "() => getComputedStyle(document.querySelector('#hand button.card')).transitionDuration")
    assert duration == "0s"
    page.emulate_media(reduced_motion="no-preference")
    page.reload()
    page.wait_for_selector("#hand button.card")
    duration = page.evaluate(
        "() => getComputedStyle(document.querySelector('#hand button.card')).transitionDuration")
    assert duration != "0s"
    page.emulate_media(contrast="more")
    assert page.evaluate("() => matchMedia('(prefers-contrast: more)').matches")
    assert page.evaluate(
        "() => getComputedStyle(document.getElementById('grain-overlay')).display") == "none"


CONTRAST_JS = (Path(__file__).parent / "contrast.js").read_text("utf-8")


def test_text_contrast_meets_wcag_aa_by_default(page: Page, live: Live, tables: Tables) -> None:
    for where in ("/", "/rules/guandan"):
        page.goto(f"{live.http}{where}")
        assert page.evaluate(CONTRAST_JS) == [], where
    visit_table(page, live, tables.playing_guandan)
    page.wait_for_selector("#hand button.card")
    assert page.evaluate(CONTRAST_JS) == []
    visit_table(page, live, tables.finished_runfast)
    assert page.evaluate(CONTRAST_JS) == []


@pytest.mark.parametrize("width", [360, 768, 1280])
def test_layout_from_phone_to_desktop(page: Page, live: Live, tables: Tables, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    for visit in ("lobby", "rules", "guandan", "runfast"):
        if visit == "lobby":
            page.goto(f"{live.http}/")
        elif visit == "rules":
            page.goto(f"{live.http}/rules/guandan")
        else:
            visit_table(page, live, tables.playing_guandan if visit == "guandan" else tables.finished_runfast)
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{visit} at {width}px is {overflow}px too wide"
        shot(page, f"layout-{visit}-{width}")
    # every card of the hand is visible and big enough to hit on a phone
    visit_table(page, live, tables.playing_guandan)
    boxes = page.evaluate(
        "() => [...document.querySelectorAll('#hand button.card')].map((b) => b.getBoundingClientRect().right)")
    assert boxes and max(boxes) <= width
