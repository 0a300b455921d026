"""Encryption at rest of identity-provider client secrets (docs/adr/0022).

Fernet (AES-128-CBC with HMAC-SHA256, from ``cryptography``) with keys from the environment:

- ``SSO_SECRET_KEYS``: comma-separated Fernet keys (``Fernet.generate_key()``); the first encrypts, every
  one decrypts, so a key is rotated by putting the new one first and running
  ``manage.py rotate_sso_secrets``.
- Without it, one key derived from ``SECRET_KEY`` (HKDF-SHA256, its own ``info``), and keys derived from
  ``SECRET_KEY_FALLBACKS`` decrypt: the secret is still never stored in clear, and a deployment that sets
  only ``SECRET_KEY`` works.

A secret that no key opens (the keys changed) reads as ``None``: the provider then fails to sign in
with a clear message until an admin saves the secret again.
"""

from __future__ import annotations

import base64

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings


def _derived(secret_key: str) -> Fernet:
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"blockplan sso client secret").derive(secret_key.encode())
    return Fernet(base64.urlsafe_b64encode(key))


def _fernet() -> MultiFernet:
    configured = [k.strip() for k in (getattr(settings, "SSO_SECRET_KEYS", None) or []) if k.strip()]
    if configured:
        return MultiFernet([Fernet(k.encode()) for k in configured])
    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    return MultiFernet([_derived(k) for k in keys])


def encrypt(secret: str) -> str:
    """The Fernet token (text) of ``secret``."""
    return _fernet().encrypt(secret.encode()).decode()


def decrypt(token: str) -> str | None:
    """The secret of a token made by :func:`encrypt`, or None when no configured key opens it."""
    try:
        return _fernet().decrypt(token.encode()).decode()
    except (InvalidToken, ValueError):
        return None


def reencrypt(token: str) -> str | None:
    """The token re-encrypted with the first key (key rotation), or None when no key opens it."""
    try:
        return _fernet().rotate(token.encode()).decode()
    except (InvalidToken, ValueError):
        return None
