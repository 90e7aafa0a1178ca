"""The game's actions by name (``game.roll(0)``, ``game.play(0, "8/5 6/5")``): each makes one
:class:`~.record.Act` through :meth:`~.machine.Game.act`, the one way in."""

from __future__ import annotations

from ..moves import Play
from ..position import WinKind
from .record import Act
from .rules import Action, check_level


class NamedActions:
    """The actions a player makes, by name; a game supplies :meth:`act`."""

    def act(self, seat: int, act: Act) -> None:
        """Make ``act`` for ``seat`` (:meth:`~.machine.Game.act`)."""
        raise NotImplementedError

    def roll(self, player: int) -> None:
        """Roll the dice: the opening roll (one die a seat), or the player's roll."""
        self.act(player, Act(Action.ROLL))

    def double(self, player: int) -> None:
        """Offer to double the stake, at the start of one's turn before rolling."""
        self.act(player, Act(Action.DOUBLE))

    def take(self, player: int) -> None:
        """Accept the double: play on for twice the stake, owning the cube."""
        self.act(player, Act(Action.TAKE))

    def drop(self, player: int) -> None:
        """Refuse the double, conceding the game at the stake before it."""
        self.act(player, Act(Action.DROP))

    def beaver(self, player: int) -> None:
        """Redouble at once on being doubled, keeping the cube (where beavers are allowed)."""
        self.act(player, Act(Action.BEAVER))

    def step(self, player: int, from_point: int, to_point: int) -> None:
        """Move one checker one die's worth; the turn waits for a confirm once complete."""
        self.act(player, Act(Action.STEP, step=(from_point, to_point)))

    def undo(self, player: int) -> None:
        """Take back the last step of this turn."""
        self.act(player, Act(Action.UNDO))

    def confirm(self, player: int) -> None:
        """End the turn once the steps make a whole play (the seed's "picking up the dice")."""
        self.act(player, Act(Action.CONFIRM))

    def play(self, player: int, play: Play | str) -> None:
        """Play a whole turn at once, as a Play or in notation, ending the turn."""
        self.act(player, Act(Action.PLAY, play=play))

    def resign(self, player: int, level: WinKind | int = WinKind.SINGLE) -> None:
        """Offer to resign, conceding a single game, a gammon or a backgammon."""
        self.act(player, Act(Action.RESIGN, level=check_level(level)))

    def accept(self, player: int) -> None:
        """Accept the opponent's resignation, ending the game at its level."""
        self.act(player, Act(Action.ACCEPT))

    def reject(self, player: int) -> None:
        """Reject the opponent's resignation; the game goes on."""
        self.act(player, Act(Action.REJECT))

    def claim(self, player: int, level: WinKind | int = WinKind.SINGLE) -> None:
        """Claim the game of an opponent who has left it (:func:`~.rules.why_no_claim`): it
        ends as their resignation at ``level``, accepted, would end it."""
        self.act(player, Act(Action.CLAIM, level=check_level(level)))

    def add_seed(self, player: int, seed: str) -> None:
        """Add one's own seed to the game's provably fair dice, before its first roll (it
        replaces one's earlier seed): the rolls are derived from it too."""
        self.act(player, Act(Action.SEED, seed=seed))

    def join(self, player: int) -> None:
        """Note in the record that ``player`` has taken their seat (a match played online,
        before its opening roll): the record, and so its version, then says so."""
        self.act(player, Act(Action.JOIN))

    def name(self, player: int, die: int) -> None:
        """Name the double to play after playing a 1-2 (Acey-deucey): ``die`` is its number."""
        self.act(player, Act(Action.NAME, die=die))
