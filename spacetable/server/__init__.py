"""The spacetable play server: FastAPI app, persistence, AI seats, clocks.

``spacetable serve`` runs :func:`spacetable.server.cli.main`; tests build the app
with :func:`spacetable.server.app.create_app`. See ``docs/server.md``.
"""
