"""A software WebAuthn authenticator for tests: a real ES256 (P-256) key, 'none' attestation.

It builds exactly what a browser hands to the SPA (``PublicKeyCredential.toJSON()``):
registration ``{id, rawId, type, response: {attestationObject, clientDataJSON, transports}, ...}`` and
assertions ``{id, rawId, type, response: {authenticatorData, clientDataJSON, signature, userHandle}}``.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url

FLAG_UP = 0x01
FLAG_UV = 0x04
FLAG_AT = 0x40


class SoftAuthenticator:
    def __init__(self, origin: str = "http://localhost:8000", rp_id: str = "localhost"):
        self.origin = origin
        self.rp_id = rp_id
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(32)
        self.sign_count = 0
        self.user_handle: bytes | None = None

    @property
    def credential_id_b64(self) -> str:
        return bytes_to_base64url(self.credential_id)

    def _cose_public_key(self) -> bytes:
        numbers = self.private_key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})

    def _client_data(self, kind: str, challenge_b64: str, origin: str | None = None) -> bytes:
        return json.dumps(
            {"type": kind, "challenge": challenge_b64, "origin": origin or self.origin, "crossOrigin": False}
        ).encode()

    def _rp_hash(self) -> bytes:
        return hashlib.sha256(self.rp_id.encode()).digest()

    def create(self, options: dict, *, origin: str | None = None) -> dict:
        """navigator.credentials.create() with the server's creation options (JSON form)."""
        assert options["rp"]["id"] == self.rp_id
        self.user_handle = base64url_to_bytes(options["user"]["id"])
        attested = (
            bytes(16)  # aaguid
            + struct.pack(">H", len(self.credential_id))
            + self.credential_id
            + self._cose_public_key()
        )
        auth_data = self._rp_hash() + bytes([FLAG_UP | FLAG_UV | FLAG_AT]) + struct.pack(">I", self.sign_count) + attested
        attestation_object = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        return {
            "id": self.credential_id_b64,
            "rawId": self.credential_id_b64,
            "type": "public-key",
            "response": {
                "attestationObject": bytes_to_base64url(attestation_object),
                "clientDataJSON": bytes_to_base64url(client_data),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }

    def get(self, options: dict, *, sign_count: int | None = None, origin: str | None = None) -> dict:
        """navigator.credentials.get() with the server's request options; raises the sign count."""
        if sign_count is None:
            self.sign_count += 1
            sign_count = self.sign_count
        auth_data = self._rp_hash() + bytes([FLAG_UP | FLAG_UV]) + struct.pack(">I", sign_count)
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signature = self.private_key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {
            "id": self.credential_id_b64,
            "rawId": self.credential_id_b64,
            "type": "public-key",
            "response": {
                "authenticatorData": bytes_to_base64url(auth_data),
                "clientDataJSON": bytes_to_base64url(client_data),
                "signature": bytes_to_base64url(signature),
                "userHandle": bytes_to_base64url(self.user_handle) if self.user_handle else None,
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }
