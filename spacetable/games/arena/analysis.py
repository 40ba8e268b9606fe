"""What Cosmic Arena lends the post-game analysis (:class:`~spacetable.core.hooks.AnalysisHooks`): the exact
values of the retrograde solver's endgame tables (AR-11, :mod:`.tables`) wherever a table covers the position,
so that such positions need no playouts and a decision there is judged exactly; the suggesting player is the
``endgame`` one, which plays the tables' moves there."""

from __future__ import annotations

from typing import Any

from spacetable.core.hooks import AnalysisHooks

from . import fast, tables
from .solver import LOSS, WIN


def exact(state: Any) -> list[float] | None:
    """Each seat's chances (1 won, 0 lost with best play) when an endgame table decides the position; ``None``
    when no table covers it, while placing or with an offer pending, when the table calls it undecided, or when
    the win would take longer than the quiet limit leaves (AR-10.2: the tables do not model it)."""
    if state.phase != "play" or state.offer != -1:
        return None
    st = fast.to_array(state)
    if st[19] >= 0:
        return None
    n = int(fast.tables(state.board)[0][2])
    tb = tables.table_for(state.board, *tables.counts(st, n))
    if tb is None:
        return None
    try:
        status, plies = tables.probe(tb, st)
    except KeyError:
        return None
    if status not in (WIN, LOSS) or plies >= fast.QUIET_LIMIT - int(st[17]):
        return None
    mover = 0 if state.colour_of(0) == state.to_move else 1
    out = [0.0, 0.0]
    out[mover] = 1.0 if status == WIN else 0.0
    out[1 - mover] = 1.0 - out[mover]
    return out


HOOKS = AnalysisHooks(suggester="endgame", exact=exact)
