"""The pages without a browser: rendering with only the web router, the catalogs, the rules
pages' structure, and that nothing the site serves points off the machine."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.testclient import TestClient

from cardavia.rules.combo import ComboType
from cardavia.web import pages
from cardavia.web.pages import (
    I18N_DIR,
    LANGUAGES,
    RULES_DIR,
    STATIC_DIR,
    TEMPLATE_DIR,
    catalog,
    pick_language,
    preset,
    rules_page,
)

WEB = Path(pages.__file__).parent


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return TestClient(app)


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_catalogs_are_complete_and_consistent() -> None:
    en = json.loads((I18N_DIR / "en.json").read_text("utf-8"))
    assert sorted(p.stem for p in I18N_DIR.glob("*.json")) == sorted(LANGUAGES)
    for lang in LANGUAGES:
        cat = json.loads((I18N_DIR / f"{lang}.json").read_text("utf-8"))
        assert set(cat) == set(en), f"{lang}: missing {set(en) - set(cat)}, extra {set(cat) - set(en)}"
        for key, value in cat.items():
            assert value.strip(), f"{lang}: {key} is empty"
            assert _placeholders(value) == _placeholders(en[key]), f"{lang}: {key} placeholders"


def _keys_used() -> set[str]:
    keys: set[str] = set()
    for path in [*TEMPLATE_DIR.glob("*.html"), *(STATIC_DIR / "js").glob("*.js")]:
        text = path.read_text("utf-8")
        keys |= set(re.findall(r"""\bt\(\s*["']([\w.]+)["']\s*[,)]""", text))
    # keys built at run time
    keys |= {f"combo.{t.value}" for t in ComboType}
    keys |= {f"rank.{r}" for r in "23456789TJQKA"} | {"rank.short.BJ", "rank.short.RJ"}
    keys |= {f"card.{j}" for j in ("BJ", "RJ")} | {f"suit.{s}" for s in "shcd"}
    keys |= {f"seat.guandan.{s}" for s in range(4)} | {f"seat.runfast.{s}" for s in range(3)}
    keys |= {f"place.{p}" for p in range(1, 5)}
    keys |= {f"difficulty.{d}" for d in ("easy", "normal", "hard", "expert")}
    keys |= {f"group.{g}" for g in ("wild", "jokers", "bomb", "triple", "pair", "single")}
    keys |= {f"settings.{k}" for k in ("contrast", "grain", "temperature")}
    keys |= {f"conn.{s}" for s in ("connecting", "lost", "refused")}
    keys |= {f"error.{c}" for c in ("auth", "bad_message", "not_your_turn", "illegal",
                                     "ambiguous", "not_allowed", "rate_limited", "too_large")}
    return keys


def test_every_key_the_ui_uses_is_in_the_catalog() -> None:
    en = catalog("en")
    missing = {k for k in _keys_used() if k not in en and f"{k}.other" not in en}
    assert not missing


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pages_render_in_each_language(client: TestClient, lang: str) -> None:
    for path in ("/", "/table/abcdefgh1234", "/rules/guandan", "/rules/runfast"):
        response = client.get(f"{path}?lang={lang}")
        assert response.status_code == 200, path
        html = response.text
        assert f'<html lang="{lang}"' in html
        assert "CARDAVIA" in html
        assert response.cookies.get(pages.LANG_COOKIE) == lang
        assert "default-src 'self'" in response.headers["content-security-policy"]
        for key in ("settings.language", "settings.contrast", "settings.grain",
                    "settings.temperature", "nav.table", "nav.rules"):
            assert catalog(lang)[key] in html
        for testid in ("lang", "contrast", "grain", "temperature"):
            assert f'data-testid="{testid}"' in html
    lobby = client.get(f"/?lang={lang}").text
    for game in ("guandan", "runfast"):
        p = preset(game, lang)
        assert p.header in lobby and p.tagline in lobby


def test_language_choice(client: TestClient) -> None:
    assert pick_language("th", "zh", "nl") == "th"
    assert pick_language(None, "zh", "nl") == "zh"
    assert pick_language("xx", None, "fi-FI,fi;q=0.9,en;q=0.8") == "fi"
    assert pick_language(None, None, "de-DE") == "en"
    client.cookies.set(pages.LANG_COOKIE, "hu")
    assert '<html lang="hu"' in client.get("/").text
    client.cookies.clear()
    assert '<html lang="nl"' in client.get("/", headers={"Accept-Language": "nl"}).text


def test_table_view_has_its_hooks(client: TestClient) -> None:
    html = client.get("/table/abcdefgh1234").text
    for testid in ("hand", "play", "pass", "hint", "new-game", "next-deal", "return-confirm",
                   "resign", "resign-confirm", "resign-cancel"):
        assert f'data-testid="{testid}"' in html
    assert 'data-state="loading"' in html and 'data-table-id="abcdefgh1234"' in html
    assert client.get("/table/bad%20id").status_code == 404
    assert client.get("/rules/chess").status_code == 404


@pytest.mark.parametrize("game", ["guandan", "runfast"])
def test_rules_pages_keep_ids_sections_and_decisions(game: str) -> None:
    for lang in LANGUAGES:
        md_path = RULES_DIR / lang / f"{game}.md"
        if not md_path.is_file():
            continue
        md = md_path.read_text("utf-8")
        page = rules_page(game, lang)
        assert page.lang == lang
        assert page.preset.header == md.splitlines()[2].strip()
        assert len(page.sections) == md.count("\n## ")
        decisions = len(re.findall(r"^> ", md, re.M))
        assert page.html.count('<blockquote class="decision">') == decisions > 0
        for rule_id in re.findall(r"^\s*- \*\*([GR]-\d+\.\d+)\*\*", md, re.M):
            assert f'id="{rule_id}"' in page.html, f"{lang} {rule_id}"


def test_missing_translations_fall_back_to_english(client: TestClient) -> None:
    for lang in LANGUAGES:
        for game in ("guandan", "runfast"):
            if not (RULES_DIR / lang / f"{game}.md").is_file():
                html = client.get(f"/rules/{game}?lang={lang}").text
                assert catalog(lang)["rules.fallback"] in html


def test_nothing_points_off_the_machine() -> None:
    offending = []
    for path in WEB.rglob("*"):
        if path.suffix not in (".html", ".js", ".css", ".svg", ".json", ".py"):
            continue
        text = path.read_text("utf-8")
        for url in re.findall(r"(?:https?:)?//[\w.-]+\.[a-z]{2,}[^\s\"')]*", text):
            if not url.startswith("http://www.w3.org/"):
                offending.append(f"{path.name}: {url}")
        if "@import" in text or "fonts.googleapis" in text:
            offending.append(f"{path.name}: remote import")
    assert not offending


def test_static_assets_are_served(client: TestClient) -> None:
    for asset in ("css/app.css", "js/table.js", "js/boot.js", "img/grain.png", "img/back.svg"):
        assert client.get(f"/static/{asset}").status_code == 200, asset
