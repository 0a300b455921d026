"""Django settings for Blockplan.

Configuration comes from the environment (docs/behaviour/operations.md §3):

- ``DATABASE_URL``: default an SQLite file ``var/blockplan.sqlite3``; PostgreSQL through psycopg 3 when given.
- ``REDIS_URL``: default the in-memory channel layer (one process); channels-redis when given.
- ``SECRET_KEY``, ``DEBUG``, ``ALLOWED_HOSTS`` (comma separated), ``PORT`` (default 8000, read by the run script).
- ``WEBAUTHN_RP_ID`` / ``WEBAUTHN_ORIGIN``: passkey relying party (default localhost / http://localhost:8000).
- ``BLOCKPLAN_PRODUCTION=1`` switches on secure cookies, HSTS and SSL redirect (``check --deploy`` clean).
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"
SPA_DIST = BASE_DIR / "spa" / "dist"


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


PRODUCTION = env_bool("BLOCKPLAN_PRODUCTION")
DEBUG = env_bool("DEBUG", default=False)
SECRET_KEY = os.environ.get("SECRET_KEY") or ("dev-insecure-blockplan-key-change-me-in-production-0123456789abcdef")
if PRODUCTION and SECRET_KEY.startswith("dev-insecure"):
    raise RuntimeError("SECRET_KEY must be set when BLOCKPLAN_PRODUCTION=1")

ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h.strip()]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    "ninja",  # /api/docs serves Swagger UI's assets from our static files, not a CDN (CSP: script-src 'self')
    "csp",
    "project.core",
    "project.accounts",
    "project.catalogue",
    "project.planning",
    "project.staff",
    "project.timetabling",
    "project.reporting",
    "project.displays",
    "project.history",
    "project.operations",
    "realtime",
]

MIDDLEWARE = [
    # Outermost: the client address behind the proxy, the request id, metrics and the access log (ADR 0020).
    "project.operations.logs.RequestLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Outside WhiteNoise, so that the SPA's index and assets served by it carry these headers too.
    "csp.middleware.CSPMiddleware",
    "project.core.middleware.ApiJsonErrorsMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "project.core.middleware.ApiCsrfCookieMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "axes.middleware.AxesMiddleware",
    "project.accounts.lockout.DeviceCookieMiddleware",  # device cookies of sign-in (docs/adr/0005)
    "project.history.middleware.ActivityHeaderMiddleware",
]

ROOT_URLCONF = "project.urls"

# Headers on every response (docs/adr/0004-security-headers-and-limits.md). The SPA loads only
# its own scripts; Mantine and Swagger UI set inline styles; images may be data: URIs (icons, Swagger);
# the socket connects to our own origin ('self' covers ws:/wss: of the same host in CSP 3).
X_FRAME_OPTIONS = "DENY"
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:"],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
ASGI_APPLICATION = "project.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

VAR_DIR.mkdir(exist_ok=True)
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'blockplan.sqlite3'}",
        # Not persistent by default (ADR 0009, amended): under daphne each concurrent request runs its
        # sync code on a thread of its own, and a persistent connection outlives that thread: 30 SPA-like
        # clients on the large organization exhausted PostgreSQL's 100 connections (500s on
        # bench/collab_bench.py). CONN_MAX_AGE>0 is for one-request-at-a-time deployments only.
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and int(os.environ.get("DB_POOL_MAX_SIZE", "10")) > 0:
    # A bounded psycopg pool per process (ADR 0009, second amendment): a request borrows a connection and
    # returns it when Django closes it at the end of the request, whatever thread daphne ran it on, so
    # connections are reused without outliving their threads. DB_POOL_MAX_SIZE=0 turns pooling off.
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # Django refuses persistent connections with a pool
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(os.environ.get("DB_POOL_MIN_SIZE", "2")),
        "max_size": int(os.environ.get("DB_POOL_MAX_SIZE", "10")),
        # A request waits this long for a free connection, then fails (503-worthy) instead of hanging.
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "10")),
    }
# Threads that run requests' synchronous work (Django's middleware and views), shared by all requests of
# the process (project/core/asgi_handler.py). As many as the pool has database connections by default: a
# request holds one connection for its whole run, so more threads would only wait for the pool.
ASGI_THREADS = int(os.environ.get("ASGI_THREADS") or os.environ.get("DB_POOL_MAX_SIZE") or "10") or 10
# Of those, threads kept for writes so that they never queue behind the re-reads a change sets off (ADR 0025).
ASGI_WRITE_THREADS = int(os.environ.get("ASGI_WRITE_THREADS", "2"))
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several coordinators and the socket share one file: wait rather than fail on a lock.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].update({"timeout": 20, "transaction_mode": "IMMEDIATE"})

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Loads the session's user with its organization in one query; checks no passwords (ADR 0009).
    "project.core.auth.SessionUserBackend",
    "django.contrib.auth.backends.ModelBackend",
]

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
# Email (invitations, ADR 0005): EMAIL_URL (e.g. smtp+tls://user:pass@smtp.example.edu.au:587), else
# the usual EMAIL_HOST / EMAIL_PORT / EMAIL_HOST_USER / EMAIL_HOST_PASSWORD / EMAIL_USE_TLS / EMAIL_USE_SSL,
# else the console backend (the message is printed to the server's output).
if os.environ.get("EMAIL_URL"):
    import dj_email_url

    vars().update(dj_email_url.parse(os.environ["EMAIL_URL"]))
elif os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", EMAIL_PORT == 587)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", EMAIL_PORT == 465)
else:
    # Printed with every token redacted; `check --deploy` refuses it under production settings (docs/adr/0020).
    EMAIL_BACKEND = "project.operations.mail.RedactingConsoleBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Blockplan <no-reply@localhost>")
# The address invitation links start with; unset, the address the admin's request came to.
BLOCKPLAN_BASE_URL = os.environ.get("BLOCKPLAN_BASE_URL", "").rstrip("/")
INVITATION_VALID_DAYS = 7
# Activity history is kept this long; `manage.py trim_activity` (run daily by a scheduler) deletes older rows.
ACTIVITY_RETENTION_DAYS = int(os.environ.get("ACTIVITY_RETENTION_DAYS", "400"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "project.accounts.validators.BlockplanPasswordValidator"},  # the rules of docs/behaviour/accounts.md §5
    # Not too close to the user's own email or name, and bounded in length.
    {
        "NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator",
        "OPTIONS": {"user_attributes": ("email", "first_name", "last_name")},
    },
    {"NAME": "project.accounts.validators.MaximumLengthValidator"},
]

LANGUAGE_CODE = "en-au"
TIME_ZONE = "Australia/Melbourne"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "staticfiles"
# The built SPA is served from the site root: index.html for "/" and hashed assets with a year-long cache.
WHITENOISE_ROOT = SPA_DIST if SPA_DIST.exists() else None
WHITENOISE_INDEX_FILE = True
WHITENOISE_USE_FINDERS = DEBUG  # production serves collectstatic's output (scripts/run.sh runs it)


def _immutable_file_test(path: str, url: str) -> bool:
    # Vite names built assets /assets/<name>-<hash>.<ext>.
    return url.startswith("/assets/")


WHITENOISE_IMMUTABLE_FILE_TEST = _immutable_file_test

# Sessions: Django's database session store (sid / sess / expire of docs/behaviour/accounts.md §1).
# Django's database sessions, read with one plain SQL statement (project/core/sessions.py).
SESSION_ENGINE = "project.core.sessions"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 30  # rememberMe: 30 days
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = False  # the SPA reads csrftoken into X-CSRFToken (docs/behaviour/api.md §2)
CSRF_FAILURE_VIEW = "project.core.views.csrf_failure"

if PRODUCTION:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"
    if not SECURE_SSL_REDIRECT:
        # SECURE_SSL_REDIRECT=0: the TLS edge in front of nginx redirects http to https (the check's own
        # alternative, ADR 0020); Django must not, or a load balancer's plain-HTTP probe would be redirected.
        SILENCED_SYSTEM_CHECKS = ["security.W008"]

# Brute-force protection (django-axes): failures per account and per address are locked out for a while.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = float(os.environ.get("AXES_COOLOFF_MINUTES", "15")) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]  # the pair (ADR 0005; project/accounts/lockout.py)
AXES_IP_FAILURE_LIMIT = int(os.environ.get("AXES_IP_FAILURE_LIMIT", "50"))  # per address, over all accounts
AXES_RESET_ON_SUCCESS = False  # project.accounts.lockout forgives the pair on a sign-in without a device cookie
AXES_USERNAME_FORM_FIELD = "email"
AXES_LOCKOUT_CALLABLE = "project.accounts.lockout.lockout_response"
AXES_WHITELIST_CALLABLE = "project.accounts.lockout.is_trusted_client"  # device cookies judged apart (ADR 0005)
AXES_VERBOSE = False
AXES_ENABLE_ADMIN = True
AXES_IPWARE_PROXY_COUNT = int(os.environ.get("AXES_PROXY_COUNT", "0")) or None

# Passkeys (webauthn)
WEBAUTHN_RP_ID = os.environ.get("WEBAUTHN_RP_ID", "localhost")
WEBAUTHN_RP_NAME = os.environ.get("WEBAUTHN_RP_NAME", "Blockplan")
WEBAUTHN_ORIGIN = [o.strip() for o in os.environ.get("WEBAUTHN_ORIGIN", "http://localhost:8000").split(",") if o.strip()]

# Wall displays authenticate their socket with a display token (realtime.authentication hook).
REALTIME_DISPLAY_TOKEN_HOOK = "project.displays.realtime.display_token_hook"  # noqa: S105 — a dotted path, not a password

# Channels: in-memory for the single-process default, Redis when REDIS_URL is set (docs/behaviour/live-events.md §3).
REDIS_URL = os.environ.get("REDIS_URL")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "realtime.layers.RedisChannelLayer",
            "CONFIG": {
                # redis-py 8 sets a 5 s socket timeout that kills idle readers (trap 1 of docs/realtime.md, Traps handled).
                "hosts": [{"address": REDIS_URL, "socket_timeout": None}],
                "capacity": 1000,
                "expiry": 60,
                "group_expiry": 86400,
            },
        }
    }
else:
    CHANNEL_LAYERS = {
        # channels' in-memory layer with its per-receive expiry sweep rate-limited (O(n²) fan-out otherwise)
        "default": {"BACKEND": "realtime.layers.InMemoryChannelLayer", "CONFIG": {"capacity": 1000}}
    }

# Hot list answers kept until the organization's next change (project.core.response_cache, ADR 0013).
RESPONSE_CACHE_SECONDS = int(os.environ.get("RESPONSE_CACHE_SECONDS", "300"))
RESPONSE_CACHE_MAX_BYTES = int(os.environ.get("RESPONSE_CACHE_MAX_BYTES", str(8 * 1024 * 1024)))
# The kept answers' first tier is the process's memory (at most RESPONSE_CACHE_LOCAL_BYTES); with
# Redis, a second tier shared by the processes (ADR 0013, ADR 0020).
RESPONSE_CACHE_LOCAL_BYTES = int(os.environ.get("RESPONSE_CACHE_LOCAL_BYTES", str(64 * 1024 * 1024)))
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
if REDIS_URL:
    CACHES["responses"] = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "bp-resp",
    }

# Single sign-on (docs/adr/0022-single-sign-on.md).
# Fernet keys encrypting identity providers' client secrets at rest (comma separated, first encrypts);
# without them a key derived from SECRET_KEY (project.accounts.sso.secrets).
SSO_SECRET_KEYS = [k.strip() for k in os.environ.get("SSO_SECRET_KEYS", "").split(",") if k.strip()]
# A session from single sign-on ends after this many hours; the SPA then re-checks silently with the provider.
SSO_SESSION_HOURS = float(os.environ.get("SSO_SESSION_HOURS", "12"))
# http:// issuer URLs (a provider on this machine, for development and tests); production wants https.
SSO_ALLOW_HTTP_ISSUERS = env_bool("SSO_ALLOW_HTTP_ISSUERS", not PRODUCTION)
# Issuers on private, loopback or link-local addresses (production refuses them: the server fetches the URL).
SSO_ALLOW_PRIVATE_ISSUERS = env_bool("SSO_ALLOW_PRIVATE_ISSUERS", not PRODUCTION)
# Host names the outbound client (project.core.outbound, docs/adr/0024) may fetch on private addresses
# although SSO_ALLOW_PRIVATE_ISSUERS is off: an identity provider on the organization's own network.
OUTBOUND_ALLOWED_HOSTS = [h.strip() for h in os.environ.get("OUTBOUND_ALLOWED_HOSTS", "").split(",") if h.strip()]
# The DNS server asked for domain-verification TXT records (docs/adr/0024); empty: the system's resolver.
DOMAIN_VERIFICATION_NAMESERVER = os.environ.get("DOMAIN_VERIFICATION_NAMESERVER", "")
DOMAIN_VERIFICATION_PORT = int(os.environ.get("DOMAIN_VERIFICATION_PORT", "53"))

# Operations (docs/adr/0020-operations.md).
# The proxies whose X-Forwarded-For is believed (addresses or networks, comma separated; none by default).
TRUSTED_PROXIES = [p.strip() for p in os.environ.get("TRUSTED_PROXIES", "").split(",") if p.strip()]
PROXY_HOPS = int(os.environ.get("PROXY_HOPS", "1"))  # proxies that append to X-Forwarded-For (nginx: 1)
# /metrics answers these client addresses, or a request with "Authorization: Bearer $METRICS_TOKEN".
METRICS_ALLOWED_IPS = [p.strip() for p in os.environ.get("METRICS_ALLOWED_IPS", "127.0.0.1,::1").split(",") if p.strip()]
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")

# Logs: one JSON line per record on standard error (LOG_FORMAT=console for a person at a terminal);
# the access log (one line per request, per socket connect and disconnect) at ACCESS_LOG_LEVEL.
import structlog  # noqa: E402

from project.operations.log_format import SHARED as _LOG_PROCESSORS  # noqa: E402
from project.operations.log_format import redact_secrets as _redact_secrets  # noqa: E402

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {
            "()": structlog.stdlib.ProcessorFormatter,
            "processors": [
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                structlog.processors.format_exc_info,
                _redact_secrets,  # no tokens in any line (docs/adr/0020)
                structlog.processors.JSONRenderer(),
            ],
            "foreign_pre_chain": _LOG_PROCESSORS,
        },
        "console": {
            "()": structlog.stdlib.ProcessorFormatter,
            "processors": [
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                structlog.processors.format_exc_info,
                _redact_secrets,
                structlog.dev.ConsoleRenderer(colors=False),
            ],
            "foreign_pre_chain": _LOG_PROCESSORS,
        },
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": os.environ.get("LOG_FORMAT", "json")}},
    "loggers": {
        "blockplan.access": {"handlers": ["console"], "level": os.environ.get("ACCESS_LOG_LEVEL", "INFO"), "propagate": False},
        "blockplan.sockets": {"handlers": ["console"], "level": os.environ.get("ACCESS_LOG_LEVEL", "INFO"), "propagate": False},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
