"""kemet's rulesets in the shape of OpenSpiel's Python games.

    from kemet.openspiel import KemetGame
    game = KemetGame("senet-kendall")
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()       # [(action, probability)]
            ...
        else:
            state.apply_action(state.legal_actions()[0])
    state.returns()                                  # [1.0, -1.0], ...

It runs without OpenSpiel; where pyspiel is installed, register() makes the
games loadable with pyspiel.load_game("kemet_senet_kendall") and the rest of
OpenSpiel's Python API.

The game as OpenSpiel sees it:
- Players 0 and 1 are kemet's players 1 and 2. The first state is the
  ruleset's set-up (kemet start) with its first mover (the player the rules
  fix, else player 1); kemet's opening procedure (who starts, by lot) is a
  chance node only in the sense that the first throw is one.
- A decision is a chance node (the throw: one action per distinct outcome,
  in kemet_throws order, with its exact probability) followed by the
  mover's node, whose actions are the indices of kemet_moves' list (a lone
  pass has action 0). Where the rules allow moves instead of throwing
  (Senet's rescue from the water), the mover first chooses among them
  (actions 0..n-1) or throws (action THROW).
- A game that reaches `max_turns` turns ends drawn (returns 0, 0), as a
  "stopped" game of kemet sim (ruling G5); OpenSpiel needs a bound.
- Bad arguments are refused as in the rest of the package: an action or a
  max_turns of the wrong type (1.7, "3") is a TypeError, one out of range
  (not a legal action here, max_turns below 1) a KemetError.
"""
from . import Rules, KemetError, _capi, _index, _whole

CHANCE = -1  # OpenSpiel's PlayerId values
TERMINAL = -4
THROW = 8191  # the action "throw" at a pre-throw choice (kemet's
# KEMET_MAX_MOVES - 1: no move list is that long)
NUM_ACTIONS = 8192


class KemetGame:
    """One ruleset as an OpenSpiel-shaped game."""

    def __init__(self, ruleset="senet-kendall", max_turns=1000, params=None):
        if params:
            ruleset = params.get("ruleset", ruleset)
            max_turns = params.get("max_turns", max_turns)
        # at most a turn of 10 actions each (max_game_length) in a C int
        max_turns = _whole(max_turns, "KemetGame: max_turns", 1, 10**8)
        self.rules = Rules(ruleset)
        self.max_turns = max_turns
        # OpenSpiel's game facts
        self.short_name = "kemet_" + self.rules.id.replace("-", "_")
        self.long_name = "kemet " + self.rules.title

    def num_players(self):
        return 2

    def num_distinct_actions(self):
        return NUM_ACTIONS

    def max_chance_outcomes(self):
        return 1024

    def min_utility(self):
        return -1.0

    def max_utility(self):
        return 1.0

    def utility_sum(self):
        return 0.0

    def max_game_length(self):
        # every turn is at most a pre-throw choice, a throw and a move per
        # value thrown
        return self.max_turns * 10

    def new_initial_state(self):
        return KemetState(self)

    def __str__(self):
        return "%s(ruleset=%s,max_turns=%d)" % (self.short_name, self.rules.spec,
                                                self.max_turns)


class KemetState:
    """A state: the position, the throw pending (if any), whose decision."""

    def __init__(self, game):
        self._game = game
        self._rules = game.rules
        self._pos = self._rules.start()
        self._throw = None  # the pending throw
        self._outcomes = None
        self._moves = None  # the mover's choices (a list of Move)
        self._prethrow_done = False
        self._turns = 0
        self._history = []
        self._stopped = False
        self._ready()

    # the node kind --------------------------------------------------------
    def _ready(self):
        """Works out the next node: a pre-throw choice, a chance node or a
        move choice."""
        self._moves = None
        self._outcomes = None
        if self._pos.over or self._stopped:
            return
        if self._throw is None:
            pre = [] if self._prethrow_done else self._rules.prethrow(self._pos)
            if pre:
                self._moves = pre
            else:
                self._outcomes = self._rules.throws(self._pos)
        else:
            self._moves = self._rules.moves(self._pos, self._throw)

    def current_player(self):
        if self.is_terminal():
            return TERMINAL
        if self._outcomes is not None:
            return CHANCE
        return self._pos.to - 1

    def is_terminal(self):
        return self._pos.over or self._stopped

    def is_chance_node(self):
        return not self.is_terminal() and self._outcomes is not None

    def is_simultaneous_node(self):
        return False

    def is_player_node(self):
        return not self.is_terminal() and self._outcomes is None

    def chance_outcomes(self):
        """[(action, probability)] at a chance node: the throws."""
        if not self.is_chance_node():
            raise KemetError(_capi.EMISUSE, "not a chance node")
        return [(i, float(p)) for i, (_, p) in enumerate(self._outcomes)]

    def legal_actions(self, player=None):
        if self.is_terminal():
            return []
        if player is not None and player != self.current_player():
            return []
        if self.is_chance_node():
            return list(range(len(self._outcomes)))
        acts = list(range(len(self._moves)))
        if self._throw is None:
            acts.append(THROW)  # throwing instead of a pre-throw move
        return acts

    def legal_actions_mask(self, player=None):
        mask = [0] * NUM_ACTIONS
        for a in self.legal_actions(player):
            mask[a] = 1
        return mask

    def _action(self, action, what):
        """A legal action of this state: TypeError for one that is not a
        whole number, KemetError for one out of range here or after the
        end."""
        action = _index(action, what + ": action")
        if self.is_terminal():
            raise KemetError(_capi.EOVER, "%s: the game is over" % what)
        if self.is_chance_node():
            if not 0 <= action < len(self._outcomes):
                raise KemetError(_capi.ETHROW, "%s: no chance outcome %d (0 to %d)"
                                 % (what, action, len(self._outcomes) - 1))
        elif not (0 <= action < len(self._moves) or
                  (self._throw is None and action == THROW)):
            raise KemetError(_capi.EILLEGAL, "%s: no legal action %d here (%s)"
                             % (what, action, self._actions_said()))
        return action

    def _actions_said(self):
        n = len(self._moves)
        said = "0 to %d" % (n - 1) if n > 1 else "0"
        return said + (", or %d to throw" % THROW if self._throw is None
                       else "")

    def apply_action(self, action):
        action = self._action(action, "apply_action")
        if self.is_chance_node():
            self._throw = self._outcomes[action][0]
            self._history.append(action)
            self._ready()
            return
        if self._throw is None and action == THROW:
            self._prethrow_done = True
            self._history.append(action)
            self._ready()
            return
        before = self._pos.to
        self._pos = self._rules.apply(self._pos, self._throw,
                                      self._moves[action])
        self._history.append(action)
        self._throw = None
        self._prethrow_done = False
        if self._pos.to != before or self._pos.over:
            self._turns += 1
            if self._turns >= self._game.max_turns and not self._pos.over:
                self._stopped = True
        self._ready()

    def action_to_string(self, player, action=None):
        if action is None:  # OpenSpiel also takes (action) alone
            player, action = self.current_player(), player
        action = self._action(action, "action_to_string")
        if self.is_chance_node():
            return "throw " + str(self._outcomes[action][0])
        if self._throw is None and action == THROW:
            return "throw"
        return str(self._moves[action])

    def string_to_action(self, player, text=None):
        """The action `text` names (as action_to_string writes it);
        OpenSpiel's (player, text) or (text) alone."""
        if text is None:
            player, text = self.current_player(), player
        if not isinstance(text, str):
            raise TypeError("string_to_action: the action must be a str, "
                            "not %r" % (text,))
        for a in self.legal_actions():
            if self.action_to_string(a) == text:
                return a
        raise KemetError(_capi.ESYNTAX, "no legal action %r" % text)

    def returns(self):
        if not self.is_terminal() or self._stopped:
            return [0.0, 0.0]
        w = self._pos.winner
        if w is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if w == 1 else [-1.0, 1.0]

    def rewards(self):
        return self.returns() if self.is_terminal() else [0.0, 0.0]

    def player_return(self, player):
        return self.returns()[player]

    def history(self):
        return list(self._history)

    def history_str(self):
        return ", ".join(str(a) for a in self._history)

    def move_number(self):
        return len(self._history)

    def information_state_string(self, player=None):
        """The position and the pending throw: the game has no hidden
        information, so every player's is the same."""
        return str(self)

    def observation_string(self, player=None):
        return str(self)

    def position(self):
        """The kemet Position (the notation of docs/notation.md)."""
        return self._pos

    def pending_throw(self):
        return self._throw

    def clone(self):
        c = KemetState.__new__(KemetState)
        c.__dict__.update(self.__dict__)
        c._history = list(self._history)
        return c

    def child(self, action):
        c = self.clone()
        c.apply_action(action)
        return c

    def __str__(self):
        s = str(self._pos)
        if self._throw is not None:
            s += " throw " + str(self._throw)
        if self._stopped:
            s += " stopped"
        return s


def register():
    """Registers every ruleset with OpenSpiel (pyspiel) as a Python game,
    "kemet_<ruleset with _>" (e.g. pyspiel.load_game("kemet_senet_kendall")).
    Returns the names registered; ImportError where pyspiel is not
    installed."""
    try:
        import pyspiel  # noqa: only where OpenSpiel is installed
    except ImportError:
        raise ImportError("kemet.openspiel.register: OpenSpiel's pyspiel is "
                          "not installed (pip install open_spiel); KemetGame "
                          "works without it") from None
    from . import rulesets

    names = []
    for rid in rulesets():
        name = "kemet_" + rid.replace("-", "_")
        gtype = pyspiel.GameType(
            short_name=name, long_name="kemet " + rid,
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.PERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.ZERO_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=2, min_num_players=2,
            provides_information_state_string=True,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=False,
            parameter_specification={"max_turns": 1000})
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=1024,
            num_players=2, min_utility=-1.0, max_utility=1.0,
            utility_sum=0.0, max_game_length=10000)

        def make(params=None, _rid=rid, _t=gtype, _i=info):
            return _SpielGame(_rid, _t, _i, params or {})

        pyspiel.register_game(gtype, make)
        names.append(name)
    return names


def _spiel_classes():
    import pyspiel

    class SpielGame(pyspiel.Game):
        def __init__(self, rid, gtype, info, params):
            super().__init__(gtype, info, params)
            self._k = KemetGame(rid, params.get("max_turns", 1000))

        def new_initial_state(self):
            return SpielState(self, self._k.new_initial_state())

    class SpielState(pyspiel.State):
        def __init__(self, game, k):
            super().__init__(game)
            self._k = k

        def current_player(self):
            return self._k.current_player()

        def _legal_actions(self, player):
            return self._k.legal_actions(player)

        def chance_outcomes(self):
            return self._k.chance_outcomes()

        def _apply_action(self, action):
            self._k.apply_action(action)

        def _action_to_string(self, player, action):
            return self._k.action_to_string(player, action)

        def is_terminal(self):
            return self._k.is_terminal()

        def returns(self):
            return self._k.returns()

        def __str__(self):
            return str(self._k)

    return SpielGame


def _SpielGame(rid, gtype, info, params):
    return _spiel_classes()(rid, gtype, info, params)
