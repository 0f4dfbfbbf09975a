"""Every language switches every visible string, survives a reload, and sets ``lang``.

English left on a non-English page is found two ways: fragments of the English catalog that
the language translates differently, and (for Hindi, Thai and Chinese) any Latin word that
is not a name (CARDAVIA, AI, Esc, the games' names, language names). A screenshot of every
view in every language goes to tests/artifacts/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from cardavia.web.pages import RULES_DIR
from tests.browser.conftest import (
    CATALOGS,
    LANGS,
    Live,
    Tables,
    open_drawer,
    open_gear,
    shot,
    visit_table,
    wait_for_me,
    wait_ready,
)

pytestmark = pytest.mark.browser

NAMES = {"CARDAVIA", "AI", "Esc", "Guandan", "Run", "Fast", "English", "Nederlands", "Magyar",
         "Suomi"}
STOPWORDS = ("the", "and", "your", "you", "cards", "card", "with", "pass", "play", "deal",
             "turn", "wins", "left", "right", "level", "hint", "next", "score")
SKIP_KEYS = {"language.name"}
NOTATION = re.compile(r"^(?:[2-9TJQKA]+[shcd]?|[2-9TJQKA][shcd])+$")  # card text: TJQKA, 7h7h


def _native_text(lang: str) -> str:
    """Everything the language itself says (catalog and the rules pages' top lines)."""
    parts = list(CATALOGS[lang].values())
    for game in ("guandan", "runfast"):
        path = RULES_DIR / lang / f"{game}.md"
        if path.is_file():
            parts += path.read_text("utf-8").splitlines()[:5]
    return "\n".join(parts)


def english_left(text: str, lang: str) -> list[str]:
    if lang == "en":
        return []
    en, cat, native = CATALOGS["en"], CATALOGS[lang], _native_text(lang)
    found: set[str] = set()

    def present(fragment: str, where: str) -> bool:
        return re.search(rf"(?<!\w){re.escape(fragment)}(?!\w)", where) is not None

    for key, value in en.items():
        if key in SKIP_KEYS or cat.get(key) == value:
            continue
        for fragment in re.split(r"\{\w+\}", value):
            fragment = fragment.strip(" :·—→()%,.!?")
            if len(re.findall(r"[A-Za-z]", fragment)) >= 4 and present(fragment, text) \
                    and not present(fragment, native):
                found.add(fragment)
    for word in STOPWORDS:
        if present(word, text) and not present(word, native):
            found.add(word)
    if lang in ("hi", "th", "zh"):
        found |= {w for w in re.findall(r"[A-Za-z]{3,}", text)
                  if w not in NAMES and not NOTATION.match(w)}
    return sorted(found)


def page_text(page: Page) -> str:
    """Visible text plus accessible names and tooltips."""
    text: str = page.evaluate(
        """() => [document.title, document.body.innerText,
            ...[...document.querySelectorAll('[aria-label],[title],[aria-valuetext]')]
              .filter((e) => e.getClientRects().length || e.closest('#hand'))
              .flatMap((e) => [e.getAttribute('aria-label'), e.getAttribute('title'),
                               e.getAttribute('aria-valuetext')])
              .filter(Boolean)].join('\\n')"""
    )
    return text


def check_language(page: Page, lang: str, where: str) -> None:
    assert page.evaluate("() => document.documentElement.lang") == lang, where
    left = english_left(page_text(page), lang)
    assert not left, f"{where} in {lang} still shows English: {left}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_view_in_every_language(page: Page, live: Live, tables: Tables, lang: str) -> None:
    page.goto(f"{live.http}/?lang={lang}")
    check_language(page, lang, "lobby")
    shot(page, f"lobby-{lang}")
    # the choice survives a reload without the query (cookie) …
    page.goto(f"{live.http}/")
    check_language(page, lang, "lobby after reload")
    # … and a lost cookie (localStorage puts it back)
    page.context.clear_cookies()
    page.goto(f"{live.http}/")
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
    check_language(page, lang, "lobby after the cookie was lost")

    for game in ("guandan", "runfast"):
        page.goto(f"{live.http}/rules/{game}")
        translated = (RULES_DIR / lang / f"{game}.md").is_file()
        assert page.locator(".notice").count() == (0 if translated else 1)
        summary = page.inner_text('[data-testid="preset-summary"]')
        assert "·" in summary
        if translated:
            check_language(page, lang, f"rules of {game}")
        else:  # the settings bar and the notice are still in the language
            assert english_left(page.inner_text("header"), lang) == []
        assert page.locator("blockquote.decision").count() >= 1
        shot(page, f"rules-{game}-{lang}")

    visit_table(page, live, tables.playing_guandan)
    page.wait_for_selector("#hand button.card")
    check_language(page, lang, "Guandan table")
    shot(page, f"table-guandan-{lang}")

    visit_table(page, live, tables.finished_runfast)
    assert page.evaluate("() => document.querySelector('#table').dataset.state") == "deal-over"
    open_drawer(page)
    page.click('[data-testid="replay-deal"]')
    page.click('[data-testid="replay-next"]')
    check_language(page, lang, "finished Run Fast table with its replay")
    shot(page, f"table-runfast-over-{lang}")


def test_language_select_switches_and_persists(page: Page, live: Live, tables: Tables) -> None:
    page.goto(f"{live.http}/")
    assert page.evaluate("() => document.documentElement.lang") == "en"
    for lang in ("th", "zh", "en"):
        open_gear(page)
        with page.expect_navigation():
            page.select_option('[data-testid="lang"]', lang)
        wait = "(l) => document.documentElement.lang === l"
        page.wait_for_function(wait, arg=lang)
        assert page.evaluate("() => localStorage.getItem('cardavia.lang')") == lang
        page.reload()
        page.wait_for_function(wait, arg=lang)
        assert page.input_value('[data-testid="lang"]') == lang
    # the table view switches in place too (it reloads and rejoins the table)
    visit_table(page, live, tables.playing_guandan)
    open_gear(page)
    with page.expect_navigation():
        page.select_option('[data-testid="lang"]', "hi")
    wait_ready(page)
    check_language(page, "hi", "table after switching")
    open_gear(page)
    with page.expect_navigation():
        page.select_option('[data-testid="lang"]', "en")


def test_fonts_for_each_script(page: Page, live: Live) -> None:
    """Thai, Devanagari and Chinese get their local system fonts (no web fonts)."""
    expected = {"th": "Thai", "hi": "Devanagari", "zh": "CJK"}
    for lang, family in expected.items():
        page.goto(f"{live.http}/?lang={lang}")
        font = page.evaluate("() => getComputedStyle(document.body).fontFamily")
        assert family in font
        # the glyphs really come from an installed font (document.fonts only lists local())
        ok = page.evaluate(
            "(t) => document.fonts.check('16px \"Cardavia ' + t + '\"', document.body.innerText)",
            family,
        )
        assert ok


@pytest.mark.parametrize(("lang", "game"), [("th", "guandan"), ("zh", "runfast")])
def test_hint_explains_itself_in_the_language(page: Page, live: Live, lang: str, game: str) -> None:
    """Hint shows the agent's reason in the page's language (from its key and args), never
    the English sentence: no Latin letters but card and rank symbols."""
    page.goto(f"{live.http}/?lang={lang}")
    created = live.create(game, seed=12, difficulty="easy")
    visit_table(page, live, (created["table_id"], created["token"]))
    assert page.evaluate("() => document.documentElement.lang") == lang
    wait_for_me(page)
    page.click('[data-testid="hint"]')
    page.wait_for_function("() => window.cardavia.hints > 0")
    hint = page.evaluate("() => window.cardavia.lastHint")
    assert hint["reason_key"] and f"reasons.{hint['reason_key']}" in CATALOGS[lang], hint
    why = page.inner_text("#why")
    assert " — " in why, why
    head = CATALOGS[lang]["hint.pass"] if hint["pass"] else CATALOGS[lang]["hint.play"].split("{")[0]
    assert why.startswith(head), why
    reason = why.split(" — ", 1)[1].strip()
    assert reason and hint["reason"] not in why
    latin = [w for w in re.findall(r"[A-Za-z]+", why) if w not in {"J", "Q", "K", "A"}]
    assert not latin, f"Latin letters in the {lang} hint: {why!r}"
    assert english_left(why, lang) == []
