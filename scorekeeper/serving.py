"""Serving with gunicorn (``deploy/gunicorn.conf.py``): an access log that never holds a token.

A join link carries its token in the path (``/g/<id>/join/<token>?w=<watch token>``) so that it
works as a plain link without JavaScript; whoever reads the access log must not be able to take
over a game from it. :class:`TokenFreeLogger` writes ``/join/…`` and ``w=…`` instead, and never
writes an ``Authorization`` or ``Cookie`` header, whatever log format an operator picks; the
app's own error log names the path the same way (``scorekeeper.App``).
"""

from __future__ import annotations

import logging
from collections.abc import MutableMapping
from datetime import timedelta
from typing import Any
from typing import cast
from typing import TYPE_CHECKING

from gunicorn.glogging import Logger
from gunicorn.http import Request
from gunicorn.http.wsgi import Response

from .tokens import HIDDEN
from .tokens import redact

if TYPE_CHECKING:
    from gunicorn.glogging import _AtomsDict

#: The headers that carry tokens, as gunicorn offers them: request and response headers, and the
#: WSGI environment's copies of the request's (``%({http_cookie}e)s``).
SECRET_HEADERS = ("{authorization}i", "{cookie}i", "{set-cookie}o", "{http_authorization}e", "{http_cookie}e")


class _Redacted(logging.Filter):
    """Takes the tokens out of an error-log message: gunicorn quotes a request line it refuses."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = redact(record.getMessage()), None
        return True


class TokenFreeLogger(Logger):
    """gunicorn's logger, with tokens taken out of every access-log field and error-log message."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        self.error_log.addFilter(_Redacted())

    def atoms(
        self, resp: Response, req: Request, environ: MutableMapping[str, Any], request_time: timedelta
    ) -> _AtomsDict:
        atoms: dict[str, Any] = dict(super().atoms(resp, req, environ, request_time))
        for key, value in atoms.items():
            if key in SECRET_HEADERS:
                atoms[key] = HIDDEN
            elif isinstance(value, str):
                atoms[key] = redact(value)
        return cast("_AtomsDict", atoms)
