"""An example game plugin: biased rock-paper-scissors (the second example in docs/writing-a-game-plugin.md).

Player 0 picks rock, paper or scissors; player 1 picks without seeing it. Rock beating
scissors pays 2 instead of 1. The unique equilibrium plays (1/4, 1/2, 1/4); the value is 0.
"""

from gamesolve import hookimpl
from gamesolve.game import TERMINAL, Game, GameSpec, Parameter, State

ROCK, PAPER, SCISSORS = 0, 1, 2
NAMES = ("rock", "paper", "scissors")


class BiasedRPSState(State):
    def __init__(self, moves=(), rock_bonus=2.0):
        self.moves = moves
        self.rock_bonus = rock_bonus

    def current_player(self):
        return len(self.moves) if len(self.moves) < 2 else TERMINAL

    def legal_actions(self):
        return [ROCK, PAPER, SCISSORS] if len(self.moves) < 2 else []

    def chance_outcomes(self):
        return []  # no chance nodes in this game

    def child(self, action):
        if action not in self.legal_actions():
            raise ValueError(f"{action} is not a legal move (0 rock, 1 paper, 2 scissors)")
        return BiasedRPSState(self.moves + (action,), self.rock_bonus)

    def returns(self):
        if len(self.moves) < 2:
            return [0.0, 0.0]
        a, b = self.moves
        if a == b:
            return [0.0, 0.0]
        win = (a - b) % 3 == 1  # paper beats rock, scissors beat paper, rock beats scissors
        stake = self.rock_bonus if ROCK in (a, b) and SCISSORS in (a, b) else 1.0
        return [stake, -stake] if win else [-stake, stake]

    def information_state_key(self, player):
        # Each player knows only their own move: player 1 must not see player 0's.
        own = self.moves[player] if player < len(self.moves) else None
        return f"p{player}:{'-' if own is None else NAMES[own]}"

    def public_state_key(self):
        return f"moves made: {len(self.moves)}"

    def action_to_string(self, action):
        return NAMES[action]


class BiasedRPS(Game):
    name = "biased-rps"

    def __init__(self, players=2, rock_bonus=2.0):
        super().__init__(players, {"rock_bonus": rock_bonus})
        self.rock_bonus = rock_bonus

    def new_initial_state(self):
        return BiasedRPSState(rock_bonus=self.rock_bonus)


@hookimpl
def gamesolve_register_games(register):
    register(
        GameSpec(
            name="biased-rps",
            factory=BiasedRPS,
            description="rock-paper-scissors where rock beating scissors pays double",
            parameters={"rock_bonus": Parameter(2.0, "what rock beating scissors pays", float, 0.0)},
        )
    )
