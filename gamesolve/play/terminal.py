"""Playing at a table in the terminal: the table drawn as text, the legal actions listed with
their sizes, typed actions read line by line (a bad one is explained and asked again).

Reading and writing go through two callables, so tests can script a session without a
terminal; ``gamesolve play`` passes stdin and ``click.echo``.

Commands at the prompt besides actions: ``?`` (the syntax), ``t`` (the table again),
``q`` (stop: the session's result is printed and its hands are kept).
"""

from __future__ import annotations

from collections.abc import Callable

from gamesolve.play.session import LogEntry, NotYourTurn, PlaySession, SessionResult
from gamesolve.play.table import Table
from gamesolve.play.view import ActionMenu, IllegalAction, PlayView, TableView

PROMPT = "> "

QUIT = ("q", "quit", "exit")


class Quit(Exception):
    """The person asked to stop (``q``, end of input)."""


def draw_table(table: TableView, view: PlayView, *, to_act: int | None = None, you: int | None = None) -> list[str]:
    """The table as lines of text: one row per seat, then board, pot and the stage."""
    has = {
        "position": any(s.position for s in table.seats),
        "stack": any(s.stack is not None for s in table.seats),
        "bet": any(s.bet is not None for s in table.seats),
    }
    width = max([len(s.name) for s in table.seats] + [6])
    head = f"  {'seat':<4}  " + (f"{'pos':<6}  " if has["position"] else "") + f"{'player':<{width}}"
    head += f"  {'stack':>8}" if has["stack"] else ""
    head += f"  {'bet':>7}" if has["bet"] else ""
    head += "  cards"
    lines = [head]
    for s in table.seats:
        mark = ">" if s.seat == to_act else " "
        name = "you" if s.seat == you else s.name
        row = f"{mark} {s.seat:<4}  " + (f"{s.position:<6}  " if has["position"] else "") + f"{name:<{width}}"
        if has["stack"]:
            row += f"  {view.amount_text(s.stack) if s.stack is not None else '':>8}"
        if has["bet"]:
            row += f"  {view.amount_text(s.bet) if s.bet else '':>7}"
        row += "  " + " ".join(s.cards) + (f"  ({s.status})" if s.status else "")
        lines.append(row.rstrip())
    middle = []
    if table.stage:
        middle.append(table.stage)
    if table.board:
        middle.append("board " + " ".join(table.board))
    if table.pot is not None:
        middle.append("pot " + view.amount_text(table.pot))
    if middle:
        lines.append("  " + " · ".join(middle))
    lines += ["  " + line for line in table.lines]
    return lines


def draw_menu(menu: ActionMenu, view: PlayView) -> list[str]:
    """The legal actions: one line per choice, and the amount range with its presets."""
    width = max([len(c.key) for c in menu.choices] + ([len(menu.amount.key) + 2] if menu.amount else []) + [2])
    lines = [f"  {c.key:<{width}}  {c.label}" for c in menu.choices if c.key != "allin"]
    if menu.amount is not None:
        a = menu.amount
        lines.append(f"  {a.key + ' N':<{width}}  {a.label} N, {view.amount_text(a.min)} .. {view.amount_text(a.max)}:")
        for p in a.presets:
            note = f" ({p.note})" if p.note else ""
            lines.append(f"  {'':<{width}}    {p.label:<8} {a.key} {p.amount}{note}")
    lines += [f"  {c.key:<{width}}  {c.label}" for c in menu.choices if c.key == "allin"]
    return lines


class TerminalPlayer:
    """Runs a :class:`Table` in a terminal-like pair of ``read()`` / ``write(line)``."""

    def __init__(self, table: Table, read: Callable[[str], str | None], write: Callable[[str], None]):
        self.table = table
        self.session: PlaySession = table.session
        self.view = table.view
        self.read = read
        self.write = write
        self._drawn = False  # the table on screen is up to date

    def run(self) -> SessionResult:
        s = self.session
        limit = f" of {s.limit}" if s.limit is not None else ""
        self.write(f"{s.game.describe()}: you and {s.game.num_players - 1} agents; type ? for help, q to stop")
        try:
            while not s.over:
                s.start_hand()
                pos = self._position(s.human_seat)
                self.write("")
                self.write(f"=== hand {s.hand + 1}{limit} · you are in seat {s.human_seat}{f' ({pos})' if pos else ''} ===")
                self._show_table()
                self._play_hand()
                self._end_of_hand()
        except (Quit, KeyboardInterrupt):  # q, end of input, Ctrl-C: the hands played are kept
            self.write("stopped.")
        result = s.result()
        self.write("")
        self.write("session: " + result.line(self.view.amount_text))
        if self.table.histories is not None and s.records:
            self.write(f"hand histories: {self.table.histories.path} ({len(s.records)} hand{'s' if len(s.records) != 1 else ''})")
        return result

    # -- one hand -----------------------------------------------------------------------------
    def _position(self, seat: int) -> str:
        table = self.view.table(self.session.state, seat, self.session.seat_names())
        return table.seats[seat].position

    def _show_table(self) -> None:
        self._drawn = True
        s = self.session
        table = self.view.table(s.state, s.human_seat, s.seat_names())
        for line in draw_table(table, self.view, to_act=s.to_act(), you=s.human_seat):
            self.write(line)

    def _say(self, entry: LogEntry) -> None:
        self._drawn = False
        self.write("  " + entry.line(self._position(entry.seat)))

    def _play_hand(self) -> None:
        s = self.session
        stage = self.view.stage(s.state)
        while s.in_hand:
            if s.bot_turn():
                self._say(s.bot_step())
            else:
                if not self._drawn:
                    self._show_table()
                self._ask()
            if s.in_hand and self.view.stage(s.state) != stage:
                stage = self.view.stage(s.state)
                board = self.view.table(s.state, s.human_seat, s.seat_names()).board
                self.write(f"--- {stage}{': ' + ' '.join(board) if board else ''} ---")
                self._drawn = False

    def _ask(self) -> None:
        s = self.session
        menu = self.view.menu(s.state)
        for line in draw_menu(menu, self.view):
            self.write(line)
        while True:
            text = self.read(PROMPT)
            if text is None:
                raise Quit
            word = text.strip().lower()
            if word in QUIT:
                raise Quit
            if word in ("?", "h", "help"):
                for line in self.view.syntax() + ["? help · t table · q stop"]:
                    self.write("  " + line)
                continue
            if word in ("t", "table"):
                self._show_table()
                for line in draw_menu(menu, self.view):
                    self.write(line)
                continue
            try:
                entry = s.human_step(text)
            except (IllegalAction, NotYourTurn) as exc:
                self.write(f"  not legal: {exc}")
                continue
            self._say(entry)
            return

    def _end_of_hand(self) -> None:
        s = self.session
        self.write(f"--- {self.view.stage(s.state)} ---")
        self._show_table()
        self.write(s.last.text + " · session " + s.result().line(self.view.amount_text))
        if self.table.coach is not None and s.decisions:
            notes = self.table.coach.notes(s, self.view)
            if notes:
                self.write(f"coach ({self.table.coach.name}, with your cards):")
                for note in notes:
                    self.write("  " + note.line())
