"""Account routes (docs/accounts.md): sign-up and sign-in (passkeys; e-mail and password when the server has a mail
relay), sessions, settings, second factor, seats bound to accounts, profiles, history, ratings, leaderboards,
export and deletion.

A session is an HttpOnly, SameSite=Lax cookie (Secure behind TLS). Every state-changing request that a session
cookie authenticates must carry the session's CSRF token in the ``X-CSRF-Token`` header (403 ``csrf`` otherwise);
the page reads the token from ``GET /api/account/me``, which another site cannot read.
"""

from __future__ import annotations

import csv
import io
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import Field

from ..accounts.service import CSRF_HEADER, SESSION_COOKIE, AccountService
from ..errors import ServiceError
from ..routing import PrefixRoute
from .deps import Client, Ctx, seat_link
from .schemas import Body, CreateMatch
from .session import Accounts, Keeper, Keys, MaybeSession, Signed, Writer, optional_session, write_session
from .workbench import store, with_content_set

router = APIRouter(tags=["accounts"], route_class=PrefixRoute)
Text = Annotated[str, Field(max_length=300)]
Secret = Annotated[str, Field(max_length=300)]


def base_url(request: Request) -> str:
    return str(request.base_url).rstrip("/")


def secure(request: Request, a: AccountService) -> bool:
    mode = a.settings.secure_cookies
    return mode == "always" or (mode == "auto" and request.url.scheme == "https")


async def signed_in(request: Request, response: Response, a: AccountService, account_id: str,
                    client: str | None) -> dict[str, Any]:
    """Open a session for ``account_id``: the cookie on ``response``, the account and CSRF token in the body."""
    token, csrf = await a.open_session(account_id, request.headers.get("user-agent", ""), client)
    response.set_cookie(SESSION_COOKIE, token, max_age=int(a.settings.session_days * 86400), path="/", httponly=True,
                        samesite="lax", secure=secure(request, a))
    return {"account": await a.me(account_id), "csrf": csrf}


def signed_out(response: Response, request: Request, a: AccountService) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=secure(request, a))


# --------------------------------------------------------------------------------------------------- bodies
class SignUp(Body):
    email: Text
    username: Text
    password: Secret
    display_name: Text = ""
    lang: str = Field(default="en", max_length=8)


class SignIn(Body):
    email: Text
    password: Secret
    totp: str | None = Field(default=None, max_length=16)


class TokenBody(Body):
    token: Secret


class ResetRequest(Body):
    email: Text


class Reset(Body):
    token: Secret
    password: Secret


class PasskeyBegin(Body):
    username: Text | None = None
    display_name: Text = ""
    lang: str = Field(default="en", max_length=8)


class PasskeyFinish(Body):
    challenge_id: str = Field(max_length=64)
    credential: dict[str, Any]


class Settings(Body):
    # a display name is at most 40 characters; longer text is refused here (422) before anything is read further
    display_name: str | None = Field(default=None, max_length=160)
    lang: str | None = Field(default=None, max_length=8)


class PasswordChange(Body):
    old: Secret = ""
    new: Secret


class Code(Body):
    code: str = Field(max_length=16)


class EndSession(Body):
    id: str = Field(max_length=16)


class Claims(Body):
    seats: list[dict[str, Any]] = Field(max_length=200)


class Delete(Body):
    confirm: Text


class CreateRated(CreateMatch):
    rated: bool = Field(default=False, description="a rated match: every seat must be an account, no AI")


# ------------------------------------------------------------------------------------------------ sign-up/in
@router.get("/api/account/me")
async def me(request: Request, a: Accounts, s: MaybeSession) -> dict[str, Any]:
    """The signed-in account and the session's CSRF token (``{"account": null}`` when signed out), and what this
    server offers (passkeys always; passwords when it has a mail relay)."""
    config = {"passwords": a.passwords_on, "passkeys": True}
    if s is None:
        return {"account": None, "csrf": None, "config": config}
    return {"account": await a.me(s.account_id), "csrf": s.csrf, "config": config}


@router.post("/api/account/signup", status_code=202)
async def signup(body: SignUp, request: Request, a: Accounts, c: Ctx, client: Client) -> dict[str, Any]:
    """A password account: a verification link is mailed. The same answer for a new and a known address."""
    await c.limiter.hit("mail", client)
    await a.signup_password(body.email, body.username, body.password, body.display_name, body.lang, base_url(request))
    return {"status": "check_mail"}


@router.post("/api/account/verify")
async def verify(body: TokenBody, request: Request, response: Response, a: Accounts, c: Ctx,
                 client: Client) -> dict[str, Any]:
    """Follow a verification link: the address is confirmed and this browser is signed in."""
    await c.limiter.hit("signin", client)
    account_id = await a.verify_email(body.token)
    return await signed_in(request, response, a, account_id, client)


@router.post("/api/account/signin")
async def signin(body: SignIn, request: Request, response: Response, a: Accounts, c: Ctx,
                 client: Client) -> dict[str, Any]:
    await c.limiter.hit("signin", client)
    await c.limiter.hit("signin_account", "email:" + body.email.strip().lower()[:254], "for this account")
    row = await a.check_password_signin(body.email, body.password, body.totp)
    return await signed_in(request, response, a, row["id"], client)


@router.post("/api/account/reset/request", status_code=202)
async def reset_request(body: ResetRequest, request: Request, a: Accounts, c: Ctx, client: Client) -> dict[str, Any]:
    """Mail a reset link if the address has an account; the same answer either way."""
    await c.limiter.hit("mail", client)
    await c.limiter.hit("mail", "email:" + body.email.strip().lower()[:254], "for this address")
    await a.request_reset(body.email, base_url(request))
    return {"status": "check_mail"}


@router.post("/api/account/reset")
async def reset(body: Reset, request: Request, response: Response, a: Accounts, c: Ctx,
                client: Client) -> dict[str, Any]:
    """A new password with a mailed reset token; every other session ends and this browser is signed in."""
    await c.limiter.hit("signin", client)
    account_id = await a.reset_password(body.token, body.password)
    return await signed_in(request, response, a, account_id, client)


@router.post("/api/account/passkey/register/begin")
async def passkey_register_begin(body: PasskeyBegin, request: Request, a: Accounts, p: Keys, c: Ctx,
                                 client: Client) -> dict[str, Any]:
    """Options for a new passkey: a new account (``username``), or, signed in (with the CSRF token), one more
    passkey for the account."""
    await c.limiter.hit("signin", client)
    s = await optional_session(request)
    if s is not None and body.username is None:
        s = await write_session(request)
        return await p.register_begin(base_url(request), s.account)
    return await p.register_begin(base_url(request), None, body.username, body.display_name, body.lang)


@router.post("/api/account/passkey/register/finish")
async def passkey_register_finish(body: PasskeyFinish, request: Request, response: Response, a: Accounts, p: Keys,
                                  c: Ctx, client: Client) -> dict[str, Any]:
    await c.limiter.hit("signin", client)
    s = await optional_session(request)
    if s is not None:
        sent = request.headers.get(CSRF_HEADER, "")
        if not sent or not secrets.compare_digest(sent.encode(), s.csrf.encode()):
            s = None  # not this page's session: treat the ceremony as a new account's
    account_id = await p.register_finish(base_url(request), body.challenge_id, body.credential,
                                         s.account if s is not None else None)
    if s is not None and s.account_id == account_id:
        return {"account": await a.me(account_id), "csrf": s.csrf}
    return await signed_in(request, response, a, account_id, client)


@router.post("/api/account/passkey/signin/begin")
async def passkey_signin_begin(request: Request, p: Keys, c: Ctx, client: Client) -> dict[str, Any]:
    await c.limiter.hit("signin", client)
    return await p.signin_begin(base_url(request))


@router.post("/api/account/passkey/signin/finish")
async def passkey_signin_finish(body: PasskeyFinish, request: Request, response: Response, a: Accounts, p: Keys,
                                c: Ctx, client: Client) -> dict[str, Any]:
    await c.limiter.hit("signin", client)
    account_id = await p.signin_finish(base_url(request), body.challenge_id, body.credential)
    return await signed_in(request, response, a, account_id, client)


# ----------------------------------------------------------------------------------------- session and settings
@router.post("/api/account/signout")
async def signout(request: Request, response: Response, a: Accounts, s: Writer) -> dict[str, Any]:
    await a.end_session(s)
    signed_out(response, request, a)
    return {"account": None}


@router.get("/api/account/sessions")
async def list_sessions(a: Accounts, s: Signed) -> list[dict[str, Any]]:
    return await a.sessions(s)


@router.post("/api/account/sessions/end")
async def end_session(body: EndSession, request: Request, response: Response, a: Accounts,
                      s: Writer) -> dict[str, Any]:
    """End one session by its id, or every session (``"all"``: sign out everywhere, this browser included)."""
    ended = await a.end_session(s, body.id)
    if body.id == "all":
        signed_out(response, request, a)
    return {"ended": ended}


@router.post("/api/account/settings")
async def settings(body: Settings, a: Accounts, s: Writer) -> dict[str, Any]:
    return await a.update(s, body.display_name, body.lang)


@router.post("/api/account/password")
async def change_password(body: PasswordChange, a: Accounts, c: Ctx, s: Writer) -> dict[str, Any]:
    await c.limiter.hit("signin_account", "account:" + s.account_id, "for this account")
    await a.change_password(s, body.old, body.new)
    return {"status": "ok"}


@router.post("/api/account/totp/setup")
async def totp_setup(a: Accounts, s: Writer) -> dict[str, str]:
    """A new authenticator secret (and its ``otpauth://`` URI); it takes effect once a code is confirmed."""
    return await a.totp_setup(s)


@router.post("/api/account/totp/enable")
async def totp_enable(body: Code, a: Accounts, c: Ctx, s: Writer) -> dict[str, Any]:
    await c.limiter.hit("signin_account", "account:" + s.account_id, "for this account")
    await a.totp_enable(s, body.code)
    return await a.me(s.account_id)


@router.post("/api/account/totp/disable")
async def totp_disable(body: Code, a: Accounts, c: Ctx, s: Writer) -> dict[str, Any]:
    await c.limiter.hit("signin_account", "account:" + s.account_id, "for this account")
    await a.totp_disable(s, body.code)
    return await a.me(s.account_id)


@router.get("/api/account/export")
async def export(request: Request, k: Keeper, s: Signed) -> JSONResponse:
    """Everything stored about the account, as a JSON download (its workbench sets included)."""
    data = await k.export(s.account_id)
    data["workbench_sets"] = await store(request).owned(s.account_id)
    return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="spacetable-{s.account["username"]}'
                                                              f'.json"', "Cache-Control": "no-store"})


@router.post("/api/account/delete")
async def delete(body: Delete, request: Request, response: Response, a: Accounts, s: Writer) -> dict[str, Any]:
    """Delete the account (``confirm``: its username): seats in past matches become "deleted player"."""
    if body.confirm != s.account["username"]:
        raise ServiceError(422, "confirm", "type your username to confirm")
    await a.delete(s)
    signed_out(response, request, a)
    return {"deleted": True}


# --------------------------------------------------------------------------------------------------- seats
@router.get("/api/account/matches")
async def my_matches(a: Accounts, s: Signed) -> list[dict[str, Any]]:
    """The account's seats in matches that are not over (to resume them on any device)."""
    return await a.my_matches(s)


@router.post("/api/account/matches", status_code=201)
async def create_match(body: CreateRated, request: Request, c: Ctx, a: Accounts, s: Writer,
                       client: Client) -> dict[str, Any]:
    """Create a match and take ``join_seat`` (default 0) as the account; ``rated``: every seat must be an account."""
    await c.limiter.hit("create", client)
    if body.rated and body.ai_seats:
        raise ServiceError(422, "bad_config", "a match against the computer is casual: it cannot be rated")
    seat = body.join_seat if body.join_seat is not None else 0
    config = await with_content_set(request, body)
    m, _ = await c.service.lobby.create(body.game, config, body.seed, body.name, body.ai_seats, body.ai_seconds,
                                        body.turn_seconds, body.open_seed, None, "",
                                        clock=body.clock.model_dump(exclude_none=True) if body.clock else None,
                                        lapse=body.lapse, lapse_agent=body.lapse_agent)
    if not 0 <= seat < len(m.seats) or m.seats[seat].kind != "open":
        raise ServiceError(422, "bad_config", f"join_seat {seat} is not an open seat")
    token = await a.seat_token(m.id, seat, s.account_id)
    await a.join_seat(m.id, seat, s.account_id, s.account["display_name"], m.game.id, body.rated, token)
    return {"match": await c.service.summary(m.id), "seat": seat, "token": token, "link": seat_link(m.id, seat, token),
            "rated": body.rated}


@router.post("/api/account/matches/{match_id}/seats/{seat}/join")
async def join(match_id: str, seat: int, c: Ctx, a: Accounts, s: Writer, client: Client) -> dict[str, Any]:
    """Take an open seat as the account (it can then be played from any device the account signs in on)."""
    await c.limiter.hit("join", client)
    m = await c.service.get(match_id)
    token = await a.seat_token(m.id, seat, s.account_id)
    await a.join_seat(m.id, seat, s.account_id, s.account["display_name"], m.game.id, False, token)
    return {"seat": seat, "token": token, "link": seat_link(m.id, seat, token), "match": await c.service.summary(m.id),
            "rated": await a.is_rated(m.id)}


@router.post("/api/account/matches/{match_id}/seats/{seat}/token")
async def seat_token(match_id: str, seat: int, a: Accounts, s: Writer) -> dict[str, Any]:
    """The token of one of the account's own seats (on another device after signing in); 403 for anybody else's."""
    token = await a.my_seat(s, match_id, seat)
    return {"seat": seat, "token": token, "link": seat_link(match_id, seat, token)}


@router.post("/api/account/claim")
async def claim(body: Claims, a: Accounts, s: Writer) -> list[dict[str, Any]]:
    """Bind the seats this browser played as a guest (each with its seat token) to the account."""
    return await a.claim(s, body.seats)


# ------------------------------------------------------------------------------------ profiles and leaderboards
Username = Annotated[str, Field(max_length=64)]
GameQ = Annotated[str | None, Query(max_length=32)]


@router.get("/api/players/{username}")
async def profile(username: str, k: Keeper) -> dict[str, Any]:
    """A player's page: name, ratings per game (with uncertainty and the provisional flag), statistics."""
    if len(username) > 64:
        raise ServiceError(404, "no_such_player", "no such player")
    return await k.profile(username)


@router.get("/api/players/{username}/ratings/{game}")
async def rating_history(username: str, game: str, k: Keeper) -> list[dict[str, Any]]:
    """A player's rating after each rated match of a game (the chart)."""
    if len(username) > 64 or len(game) > 32:
        raise ServiceError(404, "no_such_player", "no such player")
    return await k.rating_history(username, game)


@router.get("/api/players/{username}/history", response_model=None)
async def history(
    username: str, response: Response, k: Keeper, game: GameQ = None,
    result: Annotated[str | None, Query(pattern="^(win|loss|draw)$")] = None,
    opponent: Annotated[str | None, Query(max_length=64)] = None, rated: bool | None = None,
    offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0, limit: Annotated[int, Query(ge=1, le=200)] = 50,
    format: Annotated[str, Query(pattern="^(json|csv)$")] = "json",
) -> Any:
    """A page of a player's finished matches, newest first (filters: game, result, opponent, rated); ``format=csv``
    for a spreadsheet (with ``limit`` up to 200 a page; ``X-Next-Offset`` when more follow)."""
    if len(username) > 64:
        raise ServiceError(404, "no_such_player", "no such player")
    rows, more = await k.history(username, game, result, opponent, rated, offset, limit)
    headers = {"X-Next-Offset": str(offset + len(rows))} if more else {}
    if format == "csv":
        buf = io.StringIO()
        w = csv.writer(buf)
        w.writerow(["match_id", "game", "name", "seat", "result", "rated", "rating_change", "finished_at", "kind",
                    "players", "replay"])
        for r in rows:
            players = "; ".join(f"{p['seat']}: {p['name']}" for p in r["players"])
            w.writerow([r["match_id"], r["game"], _cell(r["name"]), r["seat"], r["result"], r["rated"],
                        r["rating_change"] if r["rating_change"] is not None else "", r["finished_at"], r["kind"] or "",
                        _cell(players), r["replay"]])
        return Response(buf.getvalue(), media_type="text/csv; charset=utf-8",
                        headers={**headers, "Content-Disposition": f'attachment; filename="history-{_safe(username)}.csv"'})
    response.headers.update(headers)
    return rows


def _cell(text: str) -> str:
    """A spreadsheet cell that can never be read as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _safe(name: str) -> str:
    return "".join(ch for ch in name if ch.isascii() and (ch.isalnum() or ch in "-_")) or "player"


@router.get("/api/leaderboard/{game}")
async def leaderboard(game: str, response: Response, k: Keeper,
                      offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
                      limit: Annotated[int, Query(ge=1, le=200)] = 50, provisional: bool = False) -> list[dict[str, Any]]:
    """One page of a game's leaderboard (``X-Next-Offset`` when more follow); ``provisional=true`` includes the
    players with fewer than ten rated games."""
    if len(game) > 32:
        raise ServiceError(404, "unknown_game", "unknown game")
    rows, more = await k.leaderboard(game, offset, limit, provisional)
    if more:
        response.headers["X-Next-Offset"] = str(offset + len(rows))
    return rows


__all__ = ["router"]
