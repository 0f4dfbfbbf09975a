"""The play server: a thin adapter from HTTP/WebSocket to :mod:`cardavia.table`
(docs/protocol.md). ``create_app`` builds the FastAPI app; ``cli_serve.serve`` runs it."""

from cardavia.server.app import create_app

__all__ = ["create_app"]
