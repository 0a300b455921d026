"""Time-based one-time codes (RFC 6238 with pyotp): secrets, the setup QR image and code checks.

Codes are 6 digits on 30-second steps. A code is accepted for the current step or one step either side
(clock drift), and only once: :func:`matching_counter` gives the step a code belongs to, and the caller
refuses any step at or below ``User.totp_last_counter`` (see ``services.totp_consume``).
"""

from __future__ import annotations

import base64
import hmac
import io
import time

import pyotp
import qrcode
from PIL import Image
from qrcode.constants import ERROR_CORRECT_M

ISSUER = "Blockplan"
QR_WIDTH_PX = 256  # docs/behaviour/accounts.md §2
QR_BORDER = 2  # "margin 2" in modules
DRIFT_STEPS = 1


def new_secret() -> str:
    """A fresh base32 secret (32 characters, the width of ``User.totp_secret``)."""
    return pyotp.random_base32(length=32)


def provisioning_uri(secret: str, email: str) -> str:
    """The ``otpauth://totp/Blockplan:<email>?secret=...&issuer=Blockplan`` URI an authenticator app scans."""
    return pyotp.TOTP(secret).provisioning_uri(name=email, issuer_name=ISSUER)


def qr_data_uri(text: str) -> str:
    """``data:image/png;base64,...``: a QR code of ``text``, 256 px wide with a 2-module border."""
    qr = qrcode.QRCode(error_correction=ERROR_CORRECT_M, box_size=8, border=QR_BORDER)
    qr.add_data(text)
    qr.make(fit=True)
    image = qr.make_image(fill_color="black", back_color="white").get_image().convert("L")
    image = image.resize((QR_WIDTH_PX, QR_WIDTH_PX), Image.Resampling.NEAREST)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def is_code_format(code: str | None) -> bool:
    return isinstance(code, str) and len(code) == 6 and code.isascii() and code.isdigit()


def matching_counter(secret: str, code: str, *, for_time: float | None = None) -> int | None:
    """The time step (counter) within one step of now whose code equals ``code``, else None."""
    if not secret or not is_code_format(code):
        return None
    totp = pyotp.TOTP(secret)
    now = time.time() if for_time is None else for_time
    current = int(now // totp.interval)
    for counter in (current, current - DRIFT_STEPS, current + DRIFT_STEPS):
        if hmac.compare_digest(totp.generate_otp(counter), code):
            return counter
    return None
