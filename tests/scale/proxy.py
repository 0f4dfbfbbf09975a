"""A plain TCP load balancer for the failover tests: what a deployment puts in front of
several server processes (nginx, HAProxy), reduced to what matters here.

Each new client connection goes to the first backend, in the configured order, that
accepts a TCP connection; bytes are copied both ways until either side closes, then both
close. No stickiness and no knowledge of HTTP or WebSockets: a browser whose process died
reconnects through the same address and lands on a live process.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import Sequence


class Proxy:
    """Listen on a free loopback port in a thread of its own; :attr:`port` is the address
    clients use; :meth:`close` stops it (the open connections too)."""

    def __init__(self, backends: Sequence[int]) -> None:
        self.backends = list(backends)
        self.connections = 0  # accepted client connections
        self.routed: list[int] = []  # the backend port each client connection went to
        self._loop = asyncio.new_event_loop()
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))
        self.port: int = self._sock.getsockname()[1]
        self._tasks: set[asyncio.Task[None]] = set()
        self._server: asyncio.Server | None = None
        self._ready = threading.Event()
        self._refusing = False
        self._thread = threading.Thread(target=self._run, name="proxy", daemon=True)
        self._thread.start()
        self._ready.wait(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)

        async def start() -> None:
            self._server = await asyncio.start_server(self._client, sock=self._sock)
            self._ready.set()

        self._loop.run_until_complete(start())
        self._loop.run_forever()

    async def _backend(self) -> tuple[int, asyncio.StreamReader, asyncio.StreamWriter] | None:
        for port in self.backends:
            try:
                reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 2)
            except (OSError, TimeoutError):
                continue
            return port, reader, writer
        return None

    async def _client(self, c_reader: asyncio.StreamReader, c_writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self.connections += 1
        if self._refusing:
            c_writer.close()
            self._tasks.discard(task)
            return
        copies: list[asyncio.Task[None]] = []
        b_writer: asyncio.StreamWriter | None = None
        try:
            backend = await self._backend()
            if backend is None:
                return
            port, b_reader, b_writer = backend
            self.routed.append(port)
            copies = [
                asyncio.create_task(self._copy(c_reader, b_writer)),
                asyncio.create_task(self._copy(b_reader, c_writer)),
            ]
            await asyncio.wait(copies, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            pass  # the proxy is closing
        finally:
            for copy in copies:
                copy.cancel()
            await asyncio.gather(*copies, return_exceptions=True)
            if b_writer is not None:
                b_writer.close()
            c_writer.close()
            self._tasks.discard(task)

    @staticmethod
    async def _copy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()

    def cut(self) -> None:
        """A network fault: every open connection is dropped and new ones are refused until
        :meth:`resume`."""

        async def drop() -> None:
            self._refusing = True
            tasks = list(self._tasks)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(drop(), self._loop).result(10)

    def resume(self) -> None:
        self._refusing = False

    def close(self) -> None:
        async def stop() -> None:
            if self._server is not None:
                self._server.close()
            tasks = list(self._tasks)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        with contextlib.suppress(RuntimeError):
            asyncio.run_coroutine_threadsafe(stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
