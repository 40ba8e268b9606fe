"""What a route that knows accounts needs (docs/accounts.md): the account service, the rating keeper and the passkeys
of the app, and the session of the request as FastAPI dependencies: ``MaybeSession`` (signed in or not),
``Signed`` (401 when signed out) and ``Writer`` (signed in, and the session's CSRF token in ``X-CSRF-Token``: 403
otherwise). Route modules of every concern (accounts, the workbench, chat, challenges, notifications, presence,
absence) take them from here; none of them imports another's routes for them.
"""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import Depends, Request

from ..accounts.passkeys import Passkeys
from ..accounts.ratings import RatingKeeper
from ..accounts.service import CSRF_HEADER, SESSION_COOKIE, AccountService, Session, rated_match
from ..errors import ServiceError


def accounts(request: Request) -> AccountService:
    svc: AccountService = request.app.state.accounts
    return svc


def keeper(request: Request) -> RatingKeeper:
    k: RatingKeeper = request.app.state.ratings
    return k


def passkeys(request: Request) -> Passkeys:
    p: Passkeys = request.app.state.passkeys
    return p


Accounts = Annotated[AccountService, Depends(accounts)]
Keeper = Annotated[RatingKeeper, Depends(keeper)]
Keys = Annotated[Passkeys, Depends(passkeys)]


async def optional_session(request: Request) -> Session | None:
    return await accounts(request).session(request.cookies.get(SESSION_COOKIE))


async def session(request: Request) -> Session:
    s = await optional_session(request)
    if s is None:
        raise ServiceError(401, "signed_out", "sign in first")
    return s


async def write_session(request: Request) -> Session:
    """A signed-in, state-changing request: the session's CSRF token must come in ``X-CSRF-Token``."""
    s = await session(request)
    sent = request.headers.get(CSRF_HEADER, "")
    if not sent or not secrets.compare_digest(sent.encode(), s.csrf.encode()):
        raise ServiceError(403, "csrf", "this request lacks the page's CSRF token; reload the page")
    await request.app.state.ctx.limiter.hit("account", s.account_id, "for this account")
    return s


MaybeSession = Annotated[Session | None, Depends(optional_session)]
Signed = Annotated[Session, Depends(session)]
Writer = Annotated[Session, Depends(write_session)]


async def guest_may_join(request: Request, match_id: str) -> None:
    """A rated match takes accounts only (the lobby's AI route calls this; its join checks the same in the join's own
    transaction, ``AccountService.guests_only_casual``)."""
    a: AccountService | None = getattr(request.app.state, "accounts", None)
    if a is not None and len(match_id) <= 32 and await a.is_rated(match_id):
        raise rated_match()
