# Blockplan application image: the SPA built by Node, served with the API and the socket by daphne.
FROM node:20-bookworm-slim AS spa
WORKDIR /app/spa
COPY spa/package.json spa/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY spa/ ./
RUN npm run build

FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PORT=8000
WORKDIR /app
COPY pyproject.toml ./
RUN python - <<'PY' > /tmp/requirements.txt
import tomllib
print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]))
PY
RUN pip install --no-cache-dir -r /tmp/requirements.txt
COPY manage.py ./
COPY project/ project/
COPY realtime/ realtime/
COPY --from=spa /app/spa/dist spa/dist
RUN python manage.py collectstatic --noinput -v0
EXPOSE 8000
CMD ["sh", "-c", "daphne --websocket_timeout -1 -b 0.0.0.0 -p ${PORT} --proxy-headers project.asgi:application"]
