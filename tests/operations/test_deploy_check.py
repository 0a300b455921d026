"""``manage.py check --deploy`` is clean under the cluster's production settings (ADR 0020), and fails
when one of them is unsafe (``scripts/cluster.sh start`` refuses to start then)."""

from __future__ import annotations

import os
import secrets
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON = str(ROOT / ".venv" / "bin" / "python")


def _check(**overrides) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    env.update(  # what scripts/cluster.sh gives its processes
        DJANGO_SETTINGS_MODULE="project.settings",
        BLOCKPLAN_PRODUCTION="1",
        SECURE_SSL_REDIRECT="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="localhost,127.0.0.1",
        TRUSTED_PROXIES="127.0.0.1,::1",
        CSRF_TRUSTED_ORIGINS="http://localhost:8080",
        EMAIL_URL="smtp+tls://blockplan:secret@smtp.example.edu.au:587",
    )
    env.update(overrides)
    return subprocess.run(
        [PYTHON, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_under_the_cluster_settings():
    done = _check()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_check_deploy_fails_on_an_unsafe_setting():
    debug = _check(DEBUG="1")
    assert debug.returncode != 0 and "security.W018" in debug.stderr  # DEBUG in production
    weak = _check(SECRET_KEY="short")
    assert weak.returncode != 0 and "security.W009" in weak.stderr


def test_check_deploy_fails_without_a_mail_server():
    """ADR 0020 amended: in production the console backend printed invitation links into the log."""
    done = _check(EMAIL_URL="", EMAIL_HOST="")
    assert done.returncode != 0 and "blockplan.E001" in done.stderr and "No mail server is configured" in done.stderr
    assert "ERRORS" in done.stderr  # an Error, so it fails whatever --fail-level
    for choice in ({"EMAIL_HOST": "smtp.example.edu.au"}, {"EMAIL_URL": "dummy://"}):
        done = _check(**{"EMAIL_URL": "", "EMAIL_HOST": "", **choice})
        assert done.returncode == 0, done.stdout + done.stderr
    shown = _check(EMAIL_URL="console://")
    assert shown.returncode != 0 and "blockplan.E001" in shown.stderr
