"""Alpha-beta vs MCTS at equal time per move, colours alternated; prints the score.

    .venv/bin/python bench/arena_strength.py [--games 100] [--seconds 0.2] [--board 6x4]

Score = alpha-beta's share of the games' points (full victory 1, semi-victory ½, AR-10.5),
i.e. its points divided by all points awarded; wins by kind are listed too. Target: >= 75%.
"""

from __future__ import annotations

import argparse
import time

from spacetable.games.arena import GAME
from spacetable.games.arena.ai import AGENTS


def main() -> None:
    ap = argparse.ArgumentParser(description="alpha-beta vs MCTS for Cosmic Arena")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=0.2, help="time per move for both players")
    ap.add_argument("--board", choices=("6x4", "5x5"), default="6x4")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    ab_points = mcts_points = 0.0
    ab_wins = 0
    kinds: dict[str, int] = {}
    t0 = time.perf_counter()
    for g in range(args.games):
        ab_seat = g % 2  # seat 0 is Red when red_seat = 0: colours alternate
        agents = [None, None]
        agents[ab_seat] = AGENTS["alphabeta"](args.seed + g, args.seconds)
        agents[1 - ab_seat] = AGENTS["mcts"](args.seed + g, args.seconds)
        state = GAME.initial_state(GAME.normalize_config({"board": args.board, "red_seat": 0}), args.seed + g)
        while GAME.outcome(state) is None:
            seat = GAME.to_act(state)[0]
            state = GAME.apply(state, seat, agents[seat].choose(GAME, state, seat))  # type: ignore[union-attr]
        out = GAME.outcome(state)
        assert out is not None
        winner = out.winners[0]
        who = "alphabeta" if winner == ab_seat else "mcts"
        if who == "alphabeta":
            ab_points += out.scores[winner]
            ab_wins += 1
        else:
            mcts_points += out.scores[winner]
        kinds[f"{who}:{out.kind}"] = kinds.get(f"{who}:{out.kind}", 0) + 1
        share = ab_points / max(ab_points + mcts_points, 1e-9)
        colour = "Red" if ab_seat == 0 else "Blue"
        print(f"game {g + 1}/{args.games}: alpha-beta as {colour}: {who} wins {out.details['points']} ({out.kind}, "
              f"{state.plies} plies) | running score {share:.1%}, games won {ab_wins}/{g + 1} "
              f"[{time.perf_counter() - t0:.0f}s]", flush=True)
    share = ab_points / max(ab_points + mcts_points, 1e-9)
    print(f"FINAL {args.board}, {args.games} games, {args.seconds}s/move: alpha-beta points {ab_points:g}, "
          f"MCTS points {mcts_points:g}, score {share:.1%}, games won {ab_wins}/{args.games} "
          f"({ab_wins / args.games:.1%}); endings {kinds}")


if __name__ == "__main__":
    main()
