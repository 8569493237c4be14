"""The Workbench's methods for OAuth servers: connecting without blocking the kernel's
loop while someone signs in, who answers sign-in links, and logging out.

A mixin of ``Workbench`` (``workbench.py``); the sign-in itself runs on the bridge thread
(``workbench/mcp/oauth/``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.config.spec import ConnectOptions, server_spec
from workbench.mcp.oauth.routing import SignInHandler
from workbench.mcp.oauth.tokens import forget

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from workbench.bridge import Bridge
    from workbench.mcp.answers import ClientAnswers
    from workbench.mcp.manager import ConnectionManager, ServerInfo


class Signing:
    """``aconnect``, ``on_sign_in`` and ``logout``: mixed into ``Workbench``."""

    if TYPE_CHECKING:
        _manager: ConnectionManager
        _answers: ClientAnswers
        _bridge: Bridge

        def _check_open(self) -> None: ...

    async def aconnect(self, name: str, **options: Unpack[ConnectOptions]) -> ServerInfo:
        """``connect`` for ``await``: the kernel's loop keeps running while a server starts
        or someone signs in (so a sign-in form in the cell can be answered); cancelling
        the awaiting task cancels the connection."""
        self._check_open()
        return await self._bridge.arun(self._manager.open(server_spec(name, **options)))

    def on_sign_in(self, handler: SignInHandler | None) -> None:
        """Answer OAuth sign-ins with ``handler(authorization_url)`` (sync or async), for
        scripts and tests: it returns the URL the browser was sent back to (with
        ``code=...&state=...``), or None to let the local listener catch the redirect.
        None gives sign-ins back to the person (a link and a paste box in the cell)."""
        self._answers.sign_in_handler = handler

    def logout(self, name: str) -> bool:
        """Forget the cached OAuth tokens (and client registration) of server ``name`` and
        close its connection; its settings stay, so ``reconnect(name)`` signs in again.
        Whether anything was cached; False for a server without OAuth."""
        self._check_open()
        connection = self._manager.get(name)
        spec = connection.spec
        if spec.oauth is None or spec.url is None:
            return False
        self._bridge.run(connection.close())
        return forget(spec.url)
