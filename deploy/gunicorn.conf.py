"""gunicorn settings for Bluke Scorekeeper (``make serve``, ``deploy/compose.yaml``, the systemd unit).

Threaded workers (gthread): a slow phone on a bad connection holds one thread while it sends
its request, not a whole worker, so two slow clients cannot stop a server; as many as one
process has threads stall the requests that process takes in (it goes on taking connections),
and nothing times out a slow read: serve it only behind a proxy that buffers whole requests
(deploy/Caddyfile, README "Running it on the internet"). Settings come from
the environment; the app's own settings are in README.md, "Configuration".

    SCOREKEEPER_BIND     where to listen                (default 127.0.0.1:8000)
    SCOREKEEPER_WORKERS  processes, 1 to 64             (default: one per CPU core)
    SCOREKEEPER_THREADS  threads per process, 1 to 15   (default 8)

Another value stops the server before it starts, with a sentence naming the variable: with 0
processes gunicorn listened and never answered. Each thread may hold one of its process's database
connections, of which SQLAlchemy's pool keeps at most 15 (more threads would wait for one).
"""

import os


def _count(name: str, default: int, most: int) -> int:
    text = (os.environ.get(name) or "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= most):
        raise SystemExit(f"{name} must be a whole number from 1 to {most}, not {text!r}.")
    return int(text)


wsgi_app = "scorekeeper:create_app()"
bind = os.environ.get("SCOREKEEPER_BIND", "127.0.0.1:8000").split(",")
worker_class = "gthread"
workers = _count("SCOREKEEPER_WORKERS", min(os.cpu_count() or 2, 64), 64)
threads = _count("SCOREKEEPER_THREADS", 8, 15)
# With threaded workers this is the worker's heartbeat: a process whose main loop stops answering
# for this long (stuck, out of memory) is restarted. A slow request is not cut short: each request's
# work is bounded by the app itself (rate limits, caps on what a game or group may hold).
timeout = 30
graceful_timeout = 20
keepalive = 5
# Bounded requests: a request line of at most 4 KB (paths are short), 60 headers of 16 KB. A phone
# sends a cookie for each game it opened (about 65 bytes) and a browser keeps up to 180 cookies for
# a site: with gunicorn's own 8 KB, a phone that had opened some 120 games was refused on every request.
limit_request_line = 4094
limit_request_fields = 60
limit_request_field_size = 16384
# gunicorn believes no forwarded scheme by itself (by default it trusts X-Forwarded-Proto from
# 127.0.0.1): the app believes its proxies' headers only with SCOREKEEPER_PROXIES (ProxyFix).
secure_scheme_headers: dict[str, str] = {}
# The access log goes to standard output (journald, docker logs), without any token in it.
accesslog = "-"
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms "%(a)s"'
logger_class = "scorekeeper.serving.TokenFreeLogger"
# No control socket (gunicorn 24+ opens one in $HOME): nothing uses it, and a sandboxed service has no home.
control_socket_disable = True
