"""Bluke Scorekeeper: the application factory (API.md, "Running and configuration")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask
from flask import request
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import BaseConverter

from .config import instance_path
from .config import load_config
from .tokens import redact


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app; ``config`` overrides settings, as in Flask's tutorial.

    ``config["INSTANCE_PATH"]`` (or ``SCOREKEEPER_INSTANCE_PATH``) moves the instance folder.
    """
    app = App(
        __name__,
        instance_path=instance_path(config),
        instance_relative_config=True,
        template_folder="../templates",
        static_folder="../static",
    )
    load_config(app, config)
    app.json.sort_keys = False  # type: ignore[attr-defined]  # documents read in API.md's order
    register_serving(app)
    register_extensions(app)
    register_blueprints(app)
    register_errorhandlers(app)
    register_commands(app)
    return app


class App(Flask):
    """Flask, with an error log that names the request's path without a join link's token."""

    def log_exception(self, exc_info: Any) -> None:
        self.logger.error("Exception on %s [%s]", redact(request.path), request.method, exc_info=exc_info)


def lower_host(wsgi_app: Any) -> Any:
    """The ``Host`` in lower case, as browsers send it: host names are case-insensitive (RFC 9110),
    and ``TRUSTED_HOSTS`` (lower case too) is compared exactly."""

    def app(environ: dict[str, Any], start_response: Any) -> Any:
        if "HTTP_HOST" in environ:
            environ["HTTP_HOST"] = environ["HTTP_HOST"].lower()
        return wsgi_app(environ, start_response)

    return app


def server_dated(wsgi_app: Any) -> Any:
    """No ``Date`` of the app's own: the server (Werkzeug, gunicorn) dates every answer, and a
    conditional answer (``make_conditional``, as for compressed pages and static files) would
    carry a second one, which HTTP allows only once (RFC 9110)."""

    def app(environ: dict[str, Any], start_response: Any) -> Any:
        def respond(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            return start_response(status, [(k, v) for k, v in headers if k.lower() != "date"], exc_info)

        return wsgi_app(environ, respond)

    return app


class PathPart(BaseConverter):
    """A part of an address (an id, a token): no NUL, which no id or token holds and which
    PostgreSQL cannot even compare, so such an address is a 404 on every database alike."""

    regex = "[^/\x00]+"


def register_serving(app: Flask) -> None:
    """Behind ``PROXIES`` reverse proxies, believe their forwarded address, scheme and host.

    Then ``request.remote_addr`` is the client (rate limits), ``request.is_secure`` says HTTPS
    (Secure cookies, HSTS), and links use the public host (checked against ``TRUSTED_HOSTS``).
    """
    from .web import SecureWhenHttps
    from .web import security_headers

    app.url_map.converters["default"] = app.url_map.converters["string"] = PathPart
    app.wsgi_app = server_dated(lower_host(app.wsgi_app))  # type: ignore[method-assign]
    if hops := app.config["PROXIES"]:
        # The port and a path prefix are not believed: the proxies set neither (deploy/Caddyfile),
        # so a client could forge them and have links built to another port or site.
        proxied = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=0, x_prefix=0)
        app.wsgi_app = proxied  # type: ignore[method-assign]
    app.session_interface = SecureWhenHttps()
    app.after_request(security_headers)


def register_extensions(app: Flask) -> None:
    from . import assets
    from . import i18n
    from .extensions import csrf
    from .extensions import db
    from .extensions import migrate
    from .extensions import setup_database
    from .limits import limiter

    db.init_app(app)
    migrate.init_app(app, db, directory=app.config["MIGRATIONS_DIR"], render_as_batch=True)
    csrf.init_app(app)
    limiter.init_app(app)
    i18n.init_app(app)
    setup_database(app)
    assets.register(app)


def register_blueprints(app: Flask) -> None:
    from . import groups
    from . import offline
    from . import rulebook
    from . import table
    from . import virtual
    from . import web
    from .exchange import routes as exchange
    from .printing import routes as printing

    app.register_blueprint(table.api.bp)
    app.register_blueprint(table.pages.bp)
    app.register_blueprint(printing.bp)
    app.register_blueprint(exchange.bp)
    app.register_blueprint(virtual.bp)
    app.register_blueprint(groups.api.bp)
    app.register_blueprint(groups.pages.bp)
    rulebook.init_app(app)
    app.register_blueprint(offline.bp)
    app.after_request(web.no_store)


def register_commands(app: Flask) -> None:
    """``flask --app scorekeeper summaries`` (README, "Configuration")."""
    from .games import fill_summaries

    @app.cli.command("summaries")
    def summaries() -> None:
        """Store the scorecard summary of every game that has none (after ``db upgrade --sql``)."""
        print(f"{fill_summaries()} games summed up")


def register_errorhandlers(app: Flask) -> None:
    from .errors import register

    register(app)
