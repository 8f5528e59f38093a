"""Rate limits per client address (API.md, "Errors": 429 ``rate_limited`` with ``Retry-After``).

What costs the server storage or much work is limited: creating games and tables, importing,
rendering PDFs, exporting a whole group, and changing a group's roster or games (each change adds
the whole group up again: half a second at its caps). Playing is not: a scorer's writes,
watchers' polls and a seat's moves are cheap, and a table of phones often shares one address (the
venue's Wi-Fi), so a game at play speed is never limited. A route opts in with a decorator, and
routes that share a decorator share one budget per address (a new game by the API or by the form
counts alike)::

    @bp.post("/api/groups")
    @limits.creating
    def create_group() -> Any: ...

The budgets are ``RATELIMIT_CREATE``, ``RATELIMIT_IMPORT``, ``RATELIMIT_RENDER`` and
``RATELIMIT_ROSTER`` (strings such as ``"10 per minute; 200 per hour"``). With
``SCOREKEEPER_RATELIMIT_STORAGE_URL`` (Redis) every server process counts in one place; without it
each process counts alone.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections.abc import Callable

from flask import current_app
from flask import g
from flask import request
from flask import Response
from flask_limiter import Limiter
from flask_limiter import RouteLimit
from limits import parse_many


def client_address() -> str:
    """Whom a limit counts: the client's address (behind proxies, as ``ProxyFix`` found it).

    An IPv6 client usually holds a whole /64 network, so the network is counted, not the address.

    >>> from flask import Flask
    >>> with Flask("x").test_request_context(environ_base={"REMOTE_ADDR": "2001:db8::1:2"}):
    ...     client_address()
    '2001:db8::/64'
    """
    address = request.remote_addr or "unknown"
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


limiter = Limiter(client_address)


def _budget(name: str) -> str:
    return str(current_app.config[name])


def _created(response: Response) -> bool:
    """A new game or table was stored (201, or a form's redirect to it); a refused form costs nothing,
    and so does a form that found what it asked for already made (``g.made_before``: a rematch, a set-up form sent again)."""
    return response.status_code in (201, 302, 303) and not g.get("made_before")


#: Creating a game, a virtual table or a group, by the API or a form (counted when one is made).
creating = limiter.shared_limit(
    lambda: _budget("RATELIMIT_CREATE"), scope="create", methods=["POST"], deduct_when=_created
)
#: Importing an ``export.json``.
importing = limiter.shared_limit(lambda: _budget("RATELIMIT_IMPORT"), scope="import", methods=["POST"])
#: Rendering a PDF (a game's scorecard or a blank sheet).
rendering = limiter.shared_limit(lambda: _budget("RATELIMIT_RENDER"), scope="render")
#: Renaming, merging or taking off a group's player, taking a game out of a group (counted when done).
changing_groups = limiter.shared_limit(
    lambda: _budget("RATELIMIT_ROSTER"),
    scope="roster",
    methods=["POST", "PATCH", "DELETE"],
    deduct_when=lambda response: response.status_code < 400,
)


def weighed(budget: str, scope: str, cost: Callable[[], int]) -> RouteLimit:
    """A budget shared with ``scope`` in which one request counts as ``cost()`` (a larger file is
    more work: a season summary of 300 players takes seconds), at most the budget's smallest
    allowance, so that the largest still passes once a window."""

    def capped() -> int:
        smallest = min(item.amount for item in parse_many(_budget(budget)))
        g.limit_cost = max(1, min(cost(), smallest))
        return int(g.limit_cost)

    return limiter.shared_limit(lambda: _budget(budget), scope=scope, cost=capped)


def retry_after() -> int:
    """Whole seconds until the breached limit lets this client in again (at least 1, at most its
    window: the limiter's reset time is rounded up a second past it)."""
    current = limiter.current_limit
    if current is None:
        return 60
    if g.get("limit_cost", 1) > 1:  # room for more than the oldest count's: a whole window, to be sure
        return int(current.limit.get_expiry())
    return min(current.limit.get_expiry(), max(1, math.ceil(current.reset_at - time.time())))
