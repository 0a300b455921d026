#!/usr/bin/env bash
# The scaled-out deployment on this machine (docs/adr/0020-operations.md): N daphne processes
# sharing PostgreSQL and Redis behind nginx, which is configured with deploy/nginx.conf, the same file
# docker-compose.yml mounts.
#
#   scripts/cluster.sh start [N]     migrate, collect static files, start N daphne processes (default 2)
#                                    and nginx in front at http://localhost:${CLUSTER_PORT:-8080}
#   scripts/cluster.sh restart       rolling restart: one process at a time, drained first; no request
#                                    is dropped and sockets reconnect to the other processes
#   scripts/cluster.sh restart-one I restart process I only (the same drain)
#   scripts/cluster.sh scale N       run N processes (starts or stops the difference, then reloads nginx)
#   scripts/cluster.sh status        processes, ports, readiness, where the logs and metrics are
#   scripts/cluster.sh stop          stop nginx and every process
#
# Needs DATABASE_URL (PostgreSQL) and REDIS_URL: processes share nothing else. Installs Debian's nginx
# package when it is missing. State, pids and logs live in ${CLUSTER_DIR:-var/cluster}. The processes
# run with the production settings (BLOCKPLAN_PRODUCTION=1) and believe X-Forwarded-For from nginx only.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
STATE=$(realpath -m "${CLUSTER_DIR:-$ROOT/var/cluster}")
PORT=${CLUSTER_PORT:-8080}
APP_PORT=${CLUSTER_APP_PORT:-8101}  # process I listens on APP_PORT + I - 1
DAPHNE="$ROOT/.venv/bin/daphne"      # the venv's own path, so the recorded pid is the server's
PY="$ROOT/.venv/bin/python"

say() { echo "==> $*" >&2; }
die() { echo "cluster: $*" >&2; exit 1; }

need_services() {
  [[ "${DATABASE_URL:-}" == postgres* ]] || die "set DATABASE_URL to a PostgreSQL database (the processes share it)"
  [[ "${REDIS_URL:-}" == redis* ]] || die "set REDIS_URL (the processes share events through Redis)"
}

ensure_nginx() {
  command -v nginx >/dev/null 2>&1 && return
  say "installing Debian's nginx package"
  local policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then  # do not start the system nginx on port 80
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && policy=1
  fi
  (apt-get install -y -q nginx >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q nginx >/dev/null; }) \
    || die "could not install nginx"
  [ -n "$policy" ] && rm -f /usr/sbin/policy-rc.d
  command -v nginx >/dev/null 2>&1 || die "nginx is not on PATH after installing it"
}

remember_services() {  # start: keep the services for restart and scale (an operator's shell may not have them)
  (umask 077 && printf 'DATABASE_URL=%q\nREDIS_URL=%q\n' "$DATABASE_URL" "$REDIS_URL" > "$STATE/services.env")
}

recall_services() {
  [ -f "$STATE/services.env" ] || die "the cluster is not running here ($STATE)"
  # shellcheck disable=SC1091
  set -a && . "$STATE/services.env" && set +a
}

app_env() {
  # The environment of every process: production settings behind a trusted local proxy.
  local secret_file="$STATE/secret_key"
  if [ -z "${SECRET_KEY:-}" ]; then
    [ -s "$secret_file" ] || (umask 077 && "$PY" -c 'import secrets; print(secrets.token_urlsafe(50))' > "$secret_file")
    SECRET_KEY=$(cat "$secret_file")
  fi
  export SECRET_KEY
  export DJANGO_SETTINGS_MODULE=project.settings
  export BLOCKPLAN_PRODUCTION=${BLOCKPLAN_PRODUCTION:-1}
  export SECURE_SSL_REDIRECT=${SECURE_SSL_REDIRECT:-0}  # the edge (TLS in front of nginx) redirects to https
  export ALLOWED_HOSTS=${ALLOWED_HOSTS:-localhost,127.0.0.1}
  export CSRF_TRUSTED_ORIGINS=${CSRF_TRUSTED_ORIGINS:-http://localhost:$PORT,http://127.0.0.1:$PORT}
  export WEBAUTHN_ORIGIN=${WEBAUTHN_ORIGIN:-http://localhost:$PORT}
  export WEBAUTHN_RP_ID=${WEBAUTHN_RP_ID:-localhost}
  export TRUSTED_PROXIES=${TRUSTED_PROXIES:-127.0.0.1,::1}
}

pid_of() { cat "$STATE/app-$1.pid" 2>/dev/null || true; }
alive() { local p; p=$(pid_of "$1"); [ -n "$p" ] && kill -0 "$p" 2>/dev/null; }
count() { ls "$STATE"/app-*.pid 2>/dev/null | wc -l; }

wait_ready() {  # wait_ready URL SECONDS
  local url=$1 deadline=$((SECONDS + ${2:-60}))
  while [ $SECONDS -lt $deadline ]; do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$url" || true)" = 200 ] && return 0
    sleep 0.2
  done
  return 1
}

start_app() {  # start_app I
  local i=$1 port=$((APP_PORT + $1 - 1))
  alive "$i" && return
  "$DAPHNE" --websocket_timeout -1 --application-close-timeout 5 -b 127.0.0.1 -p "$port" project.asgi:application \
    >> "$STATE/app-$i.log" 2>&1 &
  echo $! > "$STATE/app-$i.pid"
  wait_ready "http://127.0.0.1:$port/readyz" 90 || die "process $i (port $port) did not get ready: see $STATE/app-$i.log"
}

stop_app() {  # stop_app I: SIGTERM, then SIGKILL after 10 s
  local i=$1 p
  p=$(pid_of "$i")
  if [ -n "$p" ] && kill -0 "$p" 2>/dev/null; then
    kill -TERM "$p" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$p" 2>/dev/null && kill -KILL "$p" 2>/dev/null || true
  fi
  rm -f "$STATE/app-$i.pid"
}

write_upstreams() {  # write_upstreams N [DOWN]: processes 1..N, process DOWN marked down (drained)
  local n=$1 down=${2:-0} out="$STATE/blockplan-upstreams.conf.tmp" i
  : > "$out"
  for i in $(seq 1 "$n"); do
    if [ "$i" = "$down" ]; then
      echo "server 127.0.0.1:$((APP_PORT + i - 1)) down;" >> "$out"
    else
      echo "server 127.0.0.1:$((APP_PORT + i - 1)) max_fails=1 fail_timeout=2s;" >> "$out"
    fi
  done
  mv "$out" "$STATE/blockplan-upstreams.conf"
}

write_nginx_conf() {
  mkdir -p "$STATE/tmp"
  echo "listen $PORT;" > "$STATE/blockplan-listen.conf"
  cat > "$STATE/nginx.conf" <<EOF
# Written by scripts/cluster.sh: the main configuration around deploy/nginx.conf (the deployed file).
user $(id -un);
worker_processes 2;
pid $STATE/nginx.pid;
error_log $STATE/nginx-error.log warn;
# A reload hands new connections to new workers; the old ones finish their requests, and their sockets
# (wall displays) stay open up to this long before they reconnect.
worker_shutdown_timeout 1h;
events { worker_connections 4096; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    log_format blockplan '\$remote_addr [\$time_iso8601] "\$request" \$status \$body_bytes_sent \$request_time '
                         'upstream=\$upstream_addr request_id=\$request_id';
    access_log $STATE/nginx-access.log blockplan;
    client_body_temp_path $STATE/tmp/body;
    proxy_temp_path $STATE/tmp/proxy;
    fastcgi_temp_path $STATE/tmp/fastcgi;
    uwsgi_temp_path $STATE/tmp/uwsgi;
    scgi_temp_path $STATE/tmp/scgi;
    include $ROOT/deploy/nginx.conf;
}
EOF
}

nginx_running() { [ -s "$STATE/nginx.pid" ] && kill -0 "$(cat "$STATE/nginx.pid")" 2>/dev/null; }

reload_nginx() {
  nginx -q -c "$STATE/nginx.conf" -t 2>>"$STATE/nginx-error.log" || die "nginx configuration is invalid: see $STATE/nginx-error.log"
  nginx -c "$STATE/nginx.conf" -s reload
  sleep 0.5  # the new workers take over
}

cmd_start() {
  local n=${1:-2} i
  [[ "$n" =~ ^[1-9][0-9]?$ ]] || die "N must be a number of processes from 1 to 99"
  need_services
  ensure_nginx
  mkdir -p "$STATE"
  remember_services
  app_env
  "$PY" manage.py check --deploy --fail-level WARNING >/dev/null || die "manage.py check --deploy failed under these settings"
  if [ "${CLUSTER_MIGRATE:-1}" = 1 ]; then
    say "migrate and collect static files"
    "$PY" manage.py migrate --noinput -v0
    "$PY" manage.py collectstatic --noinput -v0
  fi
  say "starting $n daphne process(es) on 127.0.0.1:$APP_PORT.. "
  for i in $(seq 1 "$n"); do start_app "$i"; done
  write_upstreams "$n"
  write_nginx_conf
  if nginx_running; then reload_nginx; else
    nginx -q -c "$STATE/nginx.conf" -t 2>>"$STATE/nginx-error.log" || die "nginx configuration is invalid: see $STATE/nginx-error.log"
    nginx -c "$STATE/nginx.conf"
  fi
  wait_ready "http://127.0.0.1:$PORT/healthz" 30 || die "nginx does not answer on port $PORT: see $STATE/nginx-error.log"
  say "Blockplan at http://localhost:$PORT ($n processes behind nginx)"
}

cmd_restart_one() {  # drain process I, restart it, put it back
  local i=$1 n
  n=$(count)
  alive "$i" || [ -e "$STATE/app-$i.pid" ] || die "no process $i"
  recall_services
  app_env
  if [ "$n" -gt 1 ]; then write_upstreams "$n" "$i"; reload_nginx; sleep "${CLUSTER_DRAIN_SECONDS:-1}"; fi
  stop_app "$i"
  start_app "$i"
  write_upstreams "$n"
  reload_nginx
  say "process $i restarted (port $((APP_PORT + i - 1)))"
}

cmd_restart() {
  local n i
  n=$(count)
  [ "$n" -gt 0 ] || die "the cluster is not running"
  for i in $(seq 1 "$n"); do cmd_restart_one "$i"; done
}

cmd_scale() {
  local want=$1 n i
  [[ "$want" =~ ^[1-9][0-9]?$ ]] || die "N must be a number of processes from 1 to 99"
  n=$(count)
  recall_services
  app_env
  for i in $(seq $((n + 1)) "$want"); do start_app "$i"; done
  write_upstreams "$want"
  reload_nginx
  for i in $(seq $((want + 1)) "$n"); do stop_app "$i"; done
  say "$want process(es) behind nginx"
}

cmd_status() {
  local n i
  n=$(count)
  echo "nginx: $(nginx_running && echo "running, pid $(cat "$STATE/nginx.pid"), http://localhost:$PORT" || echo stopped)"
  for i in $(seq 1 "$n"); do
    local port=$((APP_PORT + i - 1)) ready
    ready=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz" || true)
    echo "process $i: pid $(pid_of "$i") $(alive "$i" && echo up || echo DOWN), readyz $ready," \
      "metrics http://127.0.0.1:$port/metrics, log $STATE/app-$i.log"
  done
  echo "nginx logs: $STATE/nginx-access.log $STATE/nginx-error.log"
}

cmd_stop() {
  local f i
  if nginx_running; then nginx -c "$STATE/nginx.conf" -s stop 2>/dev/null || kill "$(cat "$STATE/nginx.pid")"; fi
  for _ in $(seq 1 50); do nginx_running || break; sleep 0.1; done
  nginx_running && kill -KILL "$(cat "$STATE/nginx.pid")" 2>/dev/null || true
  for f in "$STATE"/app-*.pid; do
    [ -e "$f" ] || continue
    i=${f##*/app-}
    stop_app "${i%.pid}"
  done
  say "cluster stopped"
}

case "${1:-}" in
  start) cmd_start "${2:-2}" ;;
  restart) cmd_restart ;;
  restart-one) [ -n "${2:-}" ] || die "usage: cluster.sh restart-one I"; cmd_restart_one "$2" ;;
  scale) [ -n "${2:-}" ] || die "usage: cluster.sh scale N"; cmd_scale "$2" ;;
  status) cmd_status ;;
  stop) cmd_stop ;;
  *) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
