"""Train a small masked policy on Cosmic Arena with plain numpy, using the compiled batch API.

The policy is linear-softmax over the 2410 tokens (logits = W · observation + b, illegal tokens
masked out; actions drawn by the batch API's compiled sampler, ``vec.sample_actions(logits)``) and
learns by REINFORCE with a mean baseline, playing seat 0 of every game against a
uniformly random seat 1 (colours are drawn per game, so it learns both sides). It then plays
fresh games against random play and prints its score (1 a win, ½ a semi-victory, AR-10.5).

    .venv/bin/python examples/train_arena.py [--iterations 30] [--games 256] [--seed 0]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from spacetable.rl import arena_vector


class Policy:
    def __init__(self, obs_size: int, n_actions: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.w = (rng.standard_normal((obs_size, n_actions)) * 0.01).astype(np.float32)
        self.b = np.zeros(n_actions, dtype=np.float32)
        self.rng = rng

    def logits(self, obs: np.ndarray) -> np.ndarray:
        return obs @ self.w + self.b  # type: ignore[no-any-return]

    @staticmethod
    def probs(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The masked softmax (for the gradient; sampling is the batch API's compiled sampler)."""
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True)  # type: ignore[no-any-return]


def play(vec, policy: Policy, greedy: bool = False, record: bool = False):  # type: ignore[no-untyped-def]
    """Play one game in every slot of the batch (no auto-reset); seat 0 = policy, seat 1 = random.
    Returns seat 0's rewards and, with ``record``, the policy's (obs, probabilities, action, game) steps."""
    obs, mask = vec.reset()
    done = np.zeros(vec.n, dtype=bool)
    reward = np.zeros(vec.n, dtype=np.float32)
    steps: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    logits = np.zeros((vec.n, vec.n_actions), dtype=np.float32)  # equal logits: uniform random play (seat 1)
    while not done.all():
        mine = (vec.current_player == 0) & ~done
        logits[:] = 0.0
        if mine.any():
            logits[mine] = policy.logits(obs[mine])
        if greedy:  # the best legal token of the policy's games, a random one for seat 1
            actions = vec.sample_actions(logits, temperature=1e-6)
        else:  # the compiled sampler: softmax over each game's legal tokens (WAIT for finished games)
            actions = vec.sample_actions(logits)
        if record and mine.any():
            steps.append((obs[mine].copy(), policy.probs(logits[mine], mask[mine]), actions[mine], np.flatnonzero(mine)))
        obs, mask, rewards, terminated = vec.step(actions)
        reward[terminated] = rewards[terminated, 0]
        done |= terminated
    return reward, steps


def train(iterations: int, games: int, seed: int, lr: float) -> tuple[Policy, list[float]]:
    vec = arena_vector(games, seed=seed, auto_reset=False)
    policy = Policy(vec.obs_size, vec.n_actions, seed)
    curve = []
    for it in range(iterations):
        reward, steps = play(vec, policy, record=True)
        advantage = reward - reward.mean()
        gw = np.zeros_like(policy.w)
        gb = np.zeros_like(policy.b)
        for obs, p, actions, idx in steps:
            p[np.arange(len(actions)), actions] -= 1.0  # d(-log p(a))/d logits
            g = -p * advantage[idx, None]  # ascend advantage-weighted log-probability
            gw += obs.T @ g
            gb += g.sum(axis=0)
        policy.w += lr * gw / games
        policy.b += lr * gb / games
        curve.append(float((reward.mean() + 1) / 2))
        if it % 10 == 0 or it == iterations - 1:
            print(f"iteration {it:3d}: score against random {curve[-1]:.3f} (training games, sampled actions)")
    return policy, curve


def evaluate(policy: Policy, games: int, seed: int) -> tuple[float, float]:
    """Scores of the policy (greedy) and of uniformly random play against random play."""
    vec = arena_vector(games, seed=seed, auto_reset=False)
    reward, _ = play(vec, policy, greedy=True)
    base = Policy(vec.obs_size, vec.n_actions, seed)
    base.w[:] = 0.0  # equal logits: uniform over the legal tokens
    rand, _ = play(vec, base)
    return float((reward.mean() + 1) / 2), float((rand.mean() + 1) / 2)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=30)
    ap.add_argument("--games", type=int, default=256, help="games per iteration")
    ap.add_argument("--lr", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eval-games", type=int, default=2000)
    args = ap.parse_args()
    t = time.perf_counter()
    policy, _ = train(args.iterations, args.games, args.seed, args.lr)
    trained = time.perf_counter() - t
    score, rand = evaluate(policy, args.eval_games, args.seed + 1)
    print(f"trained {args.iterations} iterations x {args.games} games in {trained:.0f} s")
    print(f"score against random play over {args.eval_games} new games: policy {score:.3f}, random play {rand:.3f}")


if __name__ == "__main__":
    main()
