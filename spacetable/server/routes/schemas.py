"""Request bodies of the REST API: unknown fields are refused, numbers must be finite (SRV-E1)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Token = Annotated[str, Field(min_length=1, max_length=128)]


class Body(BaseModel):
    """Request bodies: unknown fields are refused."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class TimeControl(Body):
    """A match's time control (issue 21): ``none``; ``move``: ``seconds`` per turn (10..86400); ``increment``: a bank
    of ``seconds`` per seat (60..21600) plus ``increment`` seconds after each turn (0..600); ``days``: ``days`` per
    turn, correspondence (1..14)."""

    kind: Literal["none", "move", "increment", "days"]
    seconds: float | None = Field(default=None, ge=10, le=86400)
    increment: float | None = Field(default=None, ge=0, le=600)
    days: int | None = Field(default=None, ge=1, le=14)


class TimeChoice(Body):
    """The time control of a match to make and what a lapse does (a creation, a challenge, a seek)."""

    clock: TimeControl | None = Field(default=None, description="the time control (instead of turn_seconds)")
    lapse: Literal["forfeit", "claim", "computer", "pass"] | None = Field(
        default=None, description="what a lapsed clock does: the absent seat forfeits, the waiting seats may claim the "
        "win, a computer takes the seat, or the absent seat passes (games whose rules name a pass)")
    lapse_agent: str | None = Field(default=None, max_length=64, description="the computer level for lapse 'computer'")


class CreateMatch(TimeChoice):
    game: str = Field(max_length=64)
    config: dict[str, Any] = Field(default_factory=dict)
    seed: int | None = Field(default=None, description="a chosen seed; only with open_seed (everybody sees it)")
    open_seed: bool = Field(default=False, description="the seed is public from the start (and may be chosen)")
    name: str = Field(default="", max_length=200)
    ai_seats: dict[int, str | None] = Field(default_factory=dict, max_length=16,
                                            description="seat -> agent name (null: the game's default AI)")
    ai_seconds: float = Field(default=1.0, description="thinking time per AI move, seconds (0.01..120)")
    turn_seconds: float | None = Field(default=None, description="per-turn clock in seconds; none = no clock")
    join_seat: int | None = Field(default=None, description="take this seat at once; the reply carries its token")
    player_name: str = Field(default="", max_length=100)
    content_set: str | None = Field(default=None, max_length=32,
                                    description="a workbench set (the creator's own or a public one) to play with")


class JoinSeat(Body):
    name: str = Field(default="", max_length=100)


class SeatAuth(Body):
    token: Token | None = None


class AddAI(Body):
    agent: str | None = Field(default=None, max_length=64)
    by_seat: int | None = None
    token: Token | None = None


class PlayAction(Body):
    seat: int
    token: Token | None = None
    version: Any = None
    action: Any = None


class UndoBody(Body):
    seat: int
    token: Token | None = None
