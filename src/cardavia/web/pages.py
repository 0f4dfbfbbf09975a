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
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardavia.cards import CardError
from cardavia.rules.games import GAME_NAMES
from cardavia.web.lessons import LessonError, attempt, find_lesson

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
    html = _fold_details(html, translate(lang, "rules.details"))
    html, ordered = _reading_order(html, game, sections)
    return RulesPage(head, found, html, ordered)


#: A player's reading order of the Full rules: how a turn goes and what may be played
#: first, then the end of a deal, the match and the setup (rule IDs keep their numbers).
READING_ORDER: dict[str, tuple[str, ...]] = {
    "guandan": ("G-4", "G-5", "G-6", "G-1", "G-2", "G-3"),
    "runfast": ("R-1", "R-3", "R-4", "R-5", "R-2"),
}
_H2 = re.compile(r'(?=<h2 id=")')
_RULE_LEAD = re.compile(r'(<li id="[GRS]-[0-9.]+" class="rule">\s*(?:<p>)?)<strong>([GRS]-[0-9.]+)</strong>\s*')


def _fold_details(html: str, summary: str) -> str:
    """Each decision (a note for the curious) folded under "details"; each rule ID set
    apart as a small label at the start of its rule."""
    html = html.replace(
        '<blockquote class="decision">',
        f'<details class="decision-box"><summary>{summary}</summary><blockquote class="decision">',
    ).replace("</blockquote>", "</blockquote></details>")
    return _RULE_LEAD.sub(r'\1<span class="rule-id">\2</span> ', html)


def _reading_order(
    html: str, game: str, sections: list[tuple[str, str]]
) -> tuple[str, tuple[tuple[str, str], ...]]:
    order = READING_ORDER.get(game, ())
    parts = _H2.split(html)
    head, chunks = parts[0], parts[1:]
    by_id = {re.match(r'<h2 id="([^"]+)"', c).group(1): c for c in chunks if re.match(r'<h2 id="([^"]+)"', c)}  # type: ignore[union-attr]
    rank = {sid: i for i, sid in enumerate(order)}
    ids = sorted(by_id, key=lambda sid: rank.get(sid, len(rank) + list(by_id).index(sid)))
    titles = dict(sections)
    return head + "".join(by_id[i] for i in ids), tuple((i, titles.get(i, i)) for i in ids)


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


@router.get("/learn", response_class=HTMLResponse, include_in_schema=False)
def learn_index(request: Request) -> HTMLResponse:
    """Learn: Guandan first (the game tabs lead to the other)."""
    return learn_view(request, GAMES[0])


@router.get("/learn/{game}", response_class=HTMLResponse, include_in_schema=False)
def learn_view(request: Request, game: str) -> HTMLResponse:
    """A game's illustrated introduction and its guided first deal."""
    if game not in GAMES:
        return missing_page(request)
    find_lesson(game)
    return _render(request, "learn.html", "learn", game=game, sections=LEARN_SECTIONS[game])


#: The sections of each game's introduction (catalog ``learn.<game>.<id>.title/text``) and
#: the figure the page draws for each with our cards (static/js/learn.js).
LEARN_SECTIONS: dict[str, tuple[dict[str, str], ...]] = {
    "guandan": (
        {"id": "goal", "figure": "teams"},
        {"id": "types", "figure": "types"},
        {"id": "beats", "figure": "order"},
        {"id": "bombs", "figure": "bombs"},
        {"id": "wild", "figure": "wild"},
        {"id": "levels", "figure": "tribute"},
    ),
    "runfast": (
        {"id": "goal", "figure": ""},
        {"id": "types", "figure": "types"},
        {"id": "beats", "figure": "order"},
        {"id": "mustbeat", "figure": "opening"},
        {"id": "bombs", "figure": "bombs"},
        {"id": "settle", "figure": "settle"},
    ),
}


class LessonTry(BaseModel):
    """A guided deal's moves so far (each a list of card names; [] is a pass) and the move
    tried now (``{"cards": [...]}`` or ``{"pass": true}``; none to read the position)."""

    model_config = ConfigDict(extra="forbid")
    moves: list[list[str]] = Field(default_factory=list, max_length=64)
    attempt: dict[str, Any] | None = None


@router.post("/api/lessons/{game}", tags=["learn"])
def lesson_step(game: str, body: LessonTry) -> JSONResponse:
    """The guided deal of ``game`` after ``moves``, and the verdict on ``attempt``: taken,
    refused by the rules, or legal but not the lesson's (explained, to retry)."""
    try:
        lesson = find_lesson(game)
        state = attempt(lesson, body.moves, body.attempt)
    except (LessonError, CardError) as err:
        return JSONResponse({"detail": str(err)}, status_code=422)
    return JSONResponse(state)


@router.get("/history", response_class=HTMLResponse, include_in_schema=False)
def history_view(request: Request) -> HTMLResponse:
    """Your finished matches and sessions on this browser (the page reads its tokens)."""
    return _render(request, "history.html", "history")


@router.get("/replay", response_class=HTMLResponse, include_in_schema=False)
def replay_view(request: Request) -> HTMLResponse:
    """A deal on the full-size table, step by step, with its review: ``?table=…&deal=n``,
    or a downloaded record opened from this page."""
    return _render(request, "replay.html", "replay")


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
