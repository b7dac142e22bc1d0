"""OpenSpiel's Information-Set MCTS playing on our engine: the reference `bench/ismcts.py` measures
`hard` against.

The reference is the IS-MCTS of Cowling, Powley and Whitehouse (2012) as OpenSpiel ships it
(`open_spiel.python.algorithms.ismcts.ISMCTSBot`, the Python port of its C++ bot: the C++ one
cannot be handed a way to sample worlds for a game written in Python). It searches a game that
OpenSpiel sees through this adapter:

- **Our rules.** A state is one of our engine's states; its legal actions are our legal moves, and
  applying an action applies the move. Moves are numbered as they are first met, the same number
  for the same move in every world.
- **One round.** A search looks to the end of the round (a Moon hand), as `hard`'s does; the
  returns are the round values `hard` maximises (`core.bots.evaluation`), divided by the same
  scale, so both search for the same thing.
- **Our determinization as its chance model.** The root is resampled, at every simulation, by
  the engine's `determinize`: the hidden tiles placed at random, in any way that fits what the
  seat has seen (hand sizes, and the tiles a draw, a pass or a missed suit showed a player lacks),
  which is IS-MCTS's own model of the hidden state. With `worlds="hard"` it samples the worlds
  `hard` imagines instead, which `hard`'s own reading weighs further: in Doubles fitted to every
  draw and pass seen since the start, in Moon to the bids and the trump named. Within a world the
  stock's order is part of the world, so a round holds no chance node.
- **Its information sets.** A node is keyed by the seat to move and what that seat's view shows
  (its hand, the table, the public record), so worlds that seat cannot tell apart share a node.
- **Equal time.** OpenSpiel's search loop runs simulations until a count; here the same loop stops
  when the decision's time is spent, judged by the same clock as `hard`'s.
- **Its evaluator.** A leaf is valued by one playout to the end of the round, run on the engine
  directly (OpenSpiel's `RandomRolloutEvaluator` goes through the adapter at every move and gets
  fewer playouts in the time): random moves, as OpenSpiel's, or with `rollout="policy"` the same
  fast policy `hard`'s playouts use.

A player seeing only a `View`, like every bot: `IsmctsPlayer.choose(view, legal, rng, budget)`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from core.bots.clock import Clock
from core.bots.evaluation import round_value, value_scale
from core.bots.hard import HardBot
from core.bots.rollout import Policy, play_out_round, uniform
from core.moves import Move
from core.registry import get_game

UCT_C = 2.0  # OpenSpiel's examples' exploration constant, for returns of about -1 to 1
MOST_ACTIONS = 4096  # distinct moves a game may number (a bound OpenSpiel asks for; never reached)
ROLLOUTS = ("random", "policy")
WORLDS = ("engine", "hard")


def _game_type(name: str, players: int) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=f"python_dominoes_{name.replace('-', '_')}_{players}p",
        long_name=f"dominoes: one round of {name}, {players} players",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
    )


class RoundGame(pyspiel.Game):
    """One round of one of our games, as OpenSpiel sees it. It numbers the moves it meets."""

    def __init__(self, name: str, players: int) -> None:
        self.engine = get_game(name)
        self.scale = value_scale(name)
        self.players = players
        self.move_of: list[Move] = []
        self.action_of: dict[Move, int] = {}
        info = pyspiel.GameInfo(
            num_distinct_actions=MOST_ACTIONS,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-100.0,
            max_utility=100.0,
            utility_sum=None,
            max_game_length=400,
        )
        super().__init__(_game_type(name, players), info, {})

    def action(self, move: Move) -> int:
        number = self.action_of.get(move)
        if number is None:
            number = len(self.move_of)
            if number >= MOST_ACTIONS:
                raise RuntimeError(f"more than {MOST_ACTIONS} distinct moves in one game")
            self.move_of.append(move)
            self.action_of[move] = number
        return number

    def state_of(self, world: Any) -> RoundState:
        return RoundState(self, world)

    def new_initial_state(self) -> RoundState:  # OpenSpiel's API; a search starts from a world
        raise NotImplementedError("a round starts from a world: RoundGame.state_of(world)")

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        return ViewObserver()


class RoundState(pyspiel.State):
    """One of our engine's states inside a round; terminal once the round (or the match) is over."""

    def __init__(self, game: RoundGame, world: Any) -> None:
        super().__init__(game)
        self.round_game = game
        self.world = world

    def current_player(self) -> int:
        world = self.world
        if world.chance or world.over:
            return pyspiel.PlayerId.TERMINAL
        return world.to_move

    def _legal_actions(self, player: int) -> list[int]:
        action = self.round_game.action
        return [action(move) for move in self.round_game.engine.legal_moves(self.world)]

    def _apply_action(self, action: int) -> None:
        self.world = self.round_game.engine.apply(self.world, self.round_game.move_of[action])

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.round_game.move_of[action])

    def is_terminal(self) -> bool:
        return bool(self.world.chance or self.world.over)

    def returns(self) -> list[float]:
        return round_returns(self.round_game, self.world)

    def information_state_string(self, player: int | None = None) -> str:
        seat = self.world.to_move if player is None else player
        return view_key(self.round_game.engine.view(self.world, seat))

    def observation_string(self, player: int | None = None) -> str:
        return self.information_state_string(player)

    def __str__(self) -> str:
        return repr(self.world)


class ViewObserver:
    """OpenSpiel's observer of a Python game: what a seat sees is its view, as text."""

    tensor = None
    dict: dict[str, Any] = {}

    def set_from(self, state: RoundState, player: int) -> None:
        pass

    def string_from(self, state: RoundState, player: int) -> str:
        return state.information_state_string(player)


def view_key(view: Any) -> str:
    """A seat's information set: its view, which holds exactly what the seat may know (its hand is
    listed in one order, whatever world it comes from)."""
    return repr(view)


def round_returns(game: RoundGame, world: Any) -> list[float]:
    if not (world.chance or world.over):
        raise ValueError("the round is not over")
    name = game.engine.name
    return [round_value(name, world, seat) / game.scale for seat in range(game.players)]


class PlayoutEvaluator(mcts.Evaluator):
    """A leaf's value: one playout to the end of the round on the engine itself, with `policy`
    (None: the game's own, as `hard`'s playouts); a uniform prior, as OpenSpiel's
    `RandomRolloutEvaluator`."""

    def __init__(self, game: RoundGame, rng: random.Random, policy: Policy | None = uniform) -> None:
        self.game = game
        self.rng = rng
        self.policy = policy

    def evaluate(self, state: RoundState) -> np.ndarray:
        end = play_out_round(self.game.engine, state.world, self.rng, policy=self.policy)
        return np.array(round_returns(self.game, end))

    def prior(self, state: RoundState) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


class TimedISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's IS-MCTS, its search loop stopping when the decision's time is spent (its own
    loop counts simulations); everything else is OpenSpiel's."""

    budget = 1.0
    simulations = 0  # in the last search

    def run_search(self, state: RoundState) -> list[tuple[int, float]]:
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        root_key = self.get_state_key(state)
        clock = Clock(self.budget)
        self.simulations = 0
        while self.simulations < self._max_simulations:
            sampled_root_state = self.sample_root_state(state)
            if self.get_state_key(sampled_root_state) != root_key:
                raise RuntimeError("a resampled world does not give the seat to move the same view")
            self.run_simulation(sampled_root_state)
            self.simulations += 1
            # The first simulation only expands the root: a choice needs one more.
            if not clock.time_for_another() and self._root_node.total_visits > 0:
                break
        return self.get_final_policy(state, self._root_node)


def world_sampler(engine: Any, view: Any, worlds: str = "engine") -> Callable[[random.Random], Any]:
    """Worlds that fit `view`: the engine's determinization, or the worlds `hard` imagines."""
    if worlds == "engine":
        return lambda rng: engine.determinize(view, rng)
    return HardBot.world_sampler(engine, view)


class IsmctsPlayer:
    """OpenSpiel's IS-MCTS as a player of ours: it sees only its view and the legal moves."""

    level = "ismcts"
    default_budget = 1.0

    def __init__(
        self, rollout: str = "random", worlds: str = "engine", uct_c: float = UCT_C, max_simulations: int = 10**9
    ) -> None:
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout is one of {', '.join(ROLLOUTS)}, not {rollout!r}")
        if worlds not in WORLDS:
            raise ValueError(f"worlds are one of {', '.join(WORLDS)}, not {worlds!r}")
        self.policy = None if rollout == "policy" else uniform
        self.worlds = worlds
        self.uct_c = uct_c
        self.max_simulations = max_simulations
        self.games: dict[tuple[str, int], RoundGame] = {}
        self.simulations: list[int] = []  # per decision searched

    def round_game(self, name: str, players: int) -> RoundGame:
        key = (name, players)
        if key not in self.games:
            self.games[key] = RoundGame(name, players)
        return self.games[key]

    def choose(self, view: Any, legal: tuple[Move, ...], rng: random.Random, budget: float | None = None) -> Move:
        if len(legal) == 1:
            return legal[0]
        game = self.round_game(view.game, view.players)
        sample = world_sampler(game.engine, view, self.worlds)
        bot = TimedISMCTSBot(
            game,
            PlayoutEvaluator(game, rng, self.policy),
            self.uct_c,
            self.max_simulations,
            random_state=np.random.RandomState(rng.getrandbits(32)),
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        bot.budget = self.default_budget if budget is None else budget
        bot.set_resampler(lambda state, player: game.state_of(sample(rng)))
        root = game.state_of(sample(rng))
        action = bot.step(root)
        self.simulations.append(bot.simulations)
        move = game.move_of[int(action)]
        if move not in legal:
            raise RuntimeError(f"IS-MCTS chose {move}, which is not legal here")
        return move
