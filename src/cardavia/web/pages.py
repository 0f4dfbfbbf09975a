"""HTML pages of the site (rules.md Part S): Lobby, Table view, Full rules.

The play server's ``create_app`` includes :data:`router` and mounts ``/static`` from
:data:`STATIC_DIR`. Pages are rendered in the chosen language: ``?lang=xx`` (which also
sets the cookie), else the ``cardavia_lang`` cookie, else the browser's Accept-Language,
else English. The browser keeps the choice in localStorage too and re-syncs the cookie.

>>> pick_language("th", None, None), pick_language(None, "zh", "nl"), pick_language(None, None, "fi-FI,fi;q=0.9")
('th', 'zh', 'fi')
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markdown_it import MarkdownIt
from markupsafe import Markup
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardavia.rules.games import GAME_NAMES

WEB_DIR = Path(__file__).resolve().parent
STATIC_DIR = WEB_DIR / "static"
TEMPLATE_DIR = WEB_DIR / "templates"
I18N_DIR = WEB_DIR / "i18n"
RULES_DIR = WEB_DIR / "rules"

#: Languages in the order the selector lists them (S-3); English is the default.
LANGUAGES: tuple[str, ...] = ("en", "nl", "hi", "hu", "th", "fi", "zh")
DEFAULT_LANGUAGE = "en"
LANG_COOKIE = "cardavia_lang"
GAMES: tuple[str, ...] = GAME_NAMES  # the registry's names, in its order

router = APIRouter()

_env = Environment(
    loader=FileSystemLoader(str(TEMPLATE_DIR)),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)


# ---------------------------------------------------------------------------- languages


def pick_language(query: str | None, cookie: str | None, accept: str | None) -> str:
    """The page language: query parameter, then cookie, then Accept-Language, then English."""
    for value in (query, cookie):
        if value and value.lower() in LANGUAGES:
            return value.lower()
    for part in (accept or "").split(","):
        code = part.split(";")[0].strip().lower().split("-")[0]
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE


@cache
def catalog(lang: str) -> dict[str, str]:
    """The UI catalog of ``lang`` (i18n/<lang>.json), English keys filling any gap."""
    base: dict[str, str] = json.loads((I18N_DIR / "en.json").read_text(encoding="utf-8"))
    if lang != "en":
        base = {**base, **json.loads((I18N_DIR / f"{lang}.json").read_text(encoding="utf-8"))}
    return base


def translate(lang: str, key: str, **values: object) -> str:
    """One catalog string with ``{name}`` placeholders filled."""
    text = catalog(lang).get(key, key)
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text


# ---------------------------------------------------------------------------- rules pages


@dataclass(frozen=True, slots=True)
class Preset:
    """What a preset shows at the top of the lobby and the rules page (S-4)."""

    game: str
    title: str
    header: str
    tagline: str


@dataclass(frozen=True, slots=True)
class RulesPage:
    preset: Preset
    lang: str  # the language the rules text is in (may fall back to English)
    html: str
    sections: tuple[tuple[str, str], ...]  # (anchor id, heading text)


def _rules_file(game: str, lang: str) -> tuple[Path, str]:
    path = RULES_DIR / lang / f"{game}.md"
    if path.is_file():
        return path, lang
    return RULES_DIR / DEFAULT_LANGUAGE / f"{game}.md", DEFAULT_LANGUAGE


def preset(game: str, lang: str) -> Preset:
    """Title, header line and tagline of a preset: lines 1, 3 and 5 of its rules page."""
    path, found = _rules_file(game, lang)
    if found == lang and path.is_file():
        lines = path.read_text(encoding="utf-8").splitlines()
        if len(lines) >= 5:
            return Preset(game, lines[0].lstrip("# ").strip(), lines[2].strip(), lines[4].strip())
    return Preset(
        game,
        translate(lang, f"game.{game}"),
        translate(lang, f"preset.{game}.header"),
        translate(lang, f"preset.{game}.tagline"),
    )


_RULE_ID = re.compile(r"^\*\*([GRS]-[0-9]+(?:\.[0-9]+)*)\*\*")
_SECTION_ID = re.compile(r"^([GRS]-[0-9]+)\b")
_md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")


@lru_cache(maxsize=64)
def rules_page(game: str, lang: str) -> RulesPage:
    """The Full rules of ``game`` in ``lang`` (English when that language has no page yet)."""
    path, found = _rules_file(game, lang)
    lines = path.read_text(encoding="utf-8").splitlines()
    head = Preset(game, lines[0].lstrip("# ").strip(), lines[2].strip(), lines[4].strip())
    body = "\n".join(lines[5:])
    tokens = _md.parse(body)
    sections: list[tuple[str, str]] = []
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and i + 1 < len(tokens):
            text = tokens[i + 1].content
            m = _SECTION_ID.match(text)
            anchor = m.group(1) if m else f"s{len(sections) + 1}"
            tok.attrSet("id", anchor)
            if tok.tag == "h2":
                sections.append((anchor, text))
        elif tok.type == "list_item_open":
            # list_item_open, paragraph_open, inline "**G-1.1** …"
            inline = tokens[i + 2] if i + 2 < len(tokens) else None
            if inline is not None and inline.type == "inline":
                m = _RULE_ID.match(inline.content)
                if m:
                    tok.attrSet("id", m.group(1))
                    tok.attrSet("class", "rule")
        elif tok.type == "blockquote_open":
            tok.attrSet("class", "decision")
        elif tok.type == "table_open":
            tok.attrSet("class", "rules-table")
    html = _md.renderer.render(tokens, _md.options, {})
    return RulesPage(head, found, html, tuple(sections))


# ---------------------------------------------------------------------------- rendering


def request_language(request: Request) -> str:
    """The language a request asks for (see :func:`pick_language`)."""
    return pick_language(
        request.query_params.get("lang"),
        request.cookies.get(LANG_COOKIE),
        request.headers.get("accept-language"),
    )


def _context(request: Request, view: str) -> dict[str, Any]:
    lang = request_language(request)
    cat = catalog(lang)
    presets = {g: preset(g, lang) for g in GAMES}

    def t(key: str, **values: object) -> str:
        return translate(lang, key, **values)

    page_data = {
        "lang": lang,
        "view": view,
        "languages": list(LANGUAGES),
        "presets": {
            g: {"title": p.title, "header": p.header, "tagline": p.tagline}
            for g, p in presets.items()
        },
    }
    return {
        "lang": lang,
        "languages": [(code, catalog(code).get("language.name", code)) for code in LANGUAGES],
        "t": t,
        "view": view,
        "presets": presets,
        "catalog_json": Markup(_json_for_script(cat)),
        "page_json": Markup(_json_for_script(page_data)),
    }


def _json_for_script(data: object) -> str:
    """JSON safe inside a <script type="application/json"> element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _render(
    request: Request, template: str, view: str, *, status: int = 200, **extra: Any
) -> HTMLResponse:
    context = _context(request, view)
    context.update(extra)
    html = _env.get_template(template).render(**context)
    response = HTMLResponse(html, status_code=status, headers=_HEADERS)
    query_lang = request.query_params.get("lang", "").lower()
    if query_lang in LANGUAGES:
        response.set_cookie(LANG_COOKIE, query_lang, max_age=400 * 86400, samesite="lax")
    return response


#: No request may leave the machine: everything comes from this origin.
_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def lobby(request: Request) -> HTMLResponse:
    """The lobby: both presets, AI difficulty, Start."""
    return _render(request, "lobby.html", "lobby")


def missing_page(request: Request, kind: str = "missing") -> HTMLResponse:
    """The designed "not here" page (HTTP 404) with the way back to the lobby: ``kind`` is
    ``missing`` (no such page) or ``noTable`` (no such table)."""
    return _render(request, "missing.html", "missing", status=404, kind=kind)


async def _table_game(request: Request, table_id: str) -> str | None:
    """The game of a stored table; "" when this app serves no tables (the pages alone)."""
    registry = getattr(request.app.state, "registry", None)
    if registry is None:
        return ""
    room = await registry.get(table_id)
    if room is None:
        return None
    try:
        return str(room.table.config.game)
    finally:
        registry.release(room)


@router.get("/table/{table_id}", response_class=HTMLResponse, include_in_schema=False)
async def table_view(request: Request, table_id: str) -> HTMLResponse:
    """The Table view; the page's script joins the table over the WebSocket. An unknown
    table gets the designed 404 page, never an empty table."""
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", table_id):
        return missing_page(request, "noTable")
    game = await _table_game(request, table_id)
    if game is None:
        return missing_page(request, "noTable")
    extra: dict[str, Any] = {"game": game} if game else {}
    return _render(request, "table.html", "table", table_id=table_id, **extra)


_CODE = re.compile(r"[A-Za-z0-9_-]{16,64}")


@router.get("/join/{code}", response_class=HTMLResponse, include_in_schema=False)
def join_view(request: Request, code: str) -> HTMLResponse:
    """An invite link: the page asks for a name and takes the seat (a GET changes nothing:
    a link preview does not use the link up)."""
    if not _CODE.fullmatch(code):
        return missing_page(request)
    return _render(request, "join.html", "join", code=code, kind="join")


@router.get("/watch/{code}", response_class=HTMLResponse, include_in_schema=False)
def watch_view(request: Request, code: str) -> HTMLResponse:
    """A spectator link: the page opens the table to watch."""
    if not _CODE.fullmatch(code):
        return missing_page(request)
    return _render(request, "join.html", "join", code=code, kind="watch")


async def http_error(request: Request, exc: Exception) -> Response:
    """Errors of the whole app: the designed HTML page for a browser asking for a page,
    FastAPI's JSON ``{"detail": …}`` for the API (and for anything not asking for HTML)."""
    status = exc.status_code if isinstance(exc, StarletteHTTPException) else 500
    detail = exc.detail if isinstance(exc, StarletteHTTPException) else "server error"
    wants_html = "text/html" in request.headers.get("accept", "")
    if status == 404 and wants_html and not request.url.path.startswith(("/api/", "/ws/")):
        return missing_page(request)
    headers = getattr(exc, "headers", None)
    return JSONResponse({"detail": detail}, status_code=status, headers=headers)


@router.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
def rules_view(request: Request, game: str) -> HTMLResponse:
    """Full rules of a preset in the chosen language, decisions shown."""
    if game not in GAMES:
        return missing_page(request)
    page = rules_page(game, request_language(request))
    return _render(
        request, "rules.html", "rules", game=game, rules=page, rules_html=Markup(page.html)
    )


@router.get("/rules", include_in_schema=False)
def rules_index(request: Request) -> Response:
    """The Full rules tab without a game: Guandan first."""
    return rules_view(request, "guandan")


__all__ = [
    "GAMES",
    "I18N_DIR",
    "LANGUAGES",
    "LANG_COOKIE",
    "STATIC_DIR",
    "TEMPLATE_DIR",
    "catalog",
    "http_error",
    "missing_page",
    "pick_language",
    "preset",
    "request_language",
    "router",
    "rules_page",
    "translate",
]
