"""The processors of every log line (read by settings.LOGGING, so it imports nothing of Django)."""

import structlog

# Shared by structlog's own loggers and by plain ``logging`` records (the formatter's ``foreign_pre_chain``).
SHARED: list = [
    structlog.contextvars.merge_contextvars,
    structlog.stdlib.add_log_level,
    structlog.stdlib.add_logger_name,
    structlog.processors.TimeStamper(fmt="iso", utc=True),
]
