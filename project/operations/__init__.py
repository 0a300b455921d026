"""Operations (ADR 0020): what an IT team runs Blockplan by — health and readiness probes for load
balancers, Prometheus metrics, one JSON log line per request and per socket, the client address behind
the proxy. The deployment itself (nginx in front of several daphne processes, rolling restarts,
backups) is ``scripts/cluster.sh`` and ``scripts/backup.sh`` / ``scripts/restore.sh``; the runbook is the
README's "Scaling out" section and ``docs/adr/0020-operations.md``."""
