"""Bluke Scorekeeper: the application factory (API.md, "Running and configuration")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from .config import instance_path
from .config import load_config


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app; ``config`` overrides settings, as in Flask's tutorial.

    ``config["INSTANCE_PATH"]`` (or ``SCOREKEEPER_INSTANCE_PATH``) moves the instance folder.
    """
    app = Flask(
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
    return app


def register_serving(app: Flask) -> None:
    """Behind ``PROXIES`` reverse proxies, believe their forwarded address, scheme and host.

    Then ``request.remote_addr`` is the client (rate limits), ``request.is_secure`` says HTTPS
    (Secure cookies, HSTS), and links use the public host (checked against ``TRUSTED_HOSTS``).
    """
    from .web import SecureWhenHttps
    from .web import security_headers

    if hops := app.config["PROXIES"]:
        proxied = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops, x_prefix=hops)
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


def register_errorhandlers(app: Flask) -> None:
    from .errors import register

    register(app)
