"""The designer's workbench (issue 25, docs/workbench.md): content sets stored per account (``models``: the table of
migration 0009; ``sets``: the store). The routes are in :mod:`spacetable.server.routes.workbench`."""

from . import models

__all__ = ["models"]
