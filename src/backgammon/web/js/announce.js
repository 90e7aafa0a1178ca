// What a screen reader hears of the game, in the page's language: each change of the state
// the server sends is said in a live region (#announcements, a log): the steps a person makes
// and takes back, their rolls, every play of the record (the computer's with its dice), the
// cube, resignations, the games' results, and then what is to be done now.
//
// The points are said on the viewer's numbers, as the board's places are named, so that what
// is heard can be found on the board; the record's plays come on the mover's numbers and are
// turned round for the other side's, as the server turns its steps (server/views.py).

import { t } from "./i18n.js";
import { viewerPoint } from "./moves.js";

const KEPT = 20; // announcements kept in the log: a screen reader's user may read back a few

let hooks = null;
let lastNow = null; // what was last said to be done now, said again only when it changes

/**
 * Wire the announcements to the page. options: view (the seat the board is drawn for);
 * nameOf(state, seat) and about(state, seat, key) (a message's key in the second person
 * where that seat is "you"); resultOf(state, result) (a game's result in words); nowOf(state)
 * (what is to be done now, the status line's last part).
 */
export function setUpAnnouncements(options) {
  hooks = options;
}

/** Add `text` to the live region, where screen readers say it. */
export function say(text) {
  const log = document.querySelector("#announcements");
  if (!log || !text) return;
  const line = document.createElement("p");
  line.textContent = text;
  log.appendChild(line);
  while (log.childElementCount > KEPT) log.firstElementChild.remove();
}

/** Say what changed from `before` to `after` (states of one match; nothing for a match just
 * opened: its status line is there to be read). */
export function announceChange(before, after) {
  const now = hooks.nowOf(after);
  if (!before || before.id !== after.id) {
    lastNow = now;
    return;
  }
  const lines = news(before, after);
  if (now !== lastNow && !lines.includes(now)) lines.push(now);
  lastNow = now;
  lines.forEach(say);
}

/** Say that the checker on `place` was picked up and where it may go (`targets`, places). */
export function announcePickUp(place, targets) {
  say(t("say.pickedUp", { place: placeName(place), targets: list([...targets].map(placeName), true) }));
}

/** Say that the checker picked up was put back. */
export function announcePutBack() {
  say(t("say.putBack"));
}

/** A place of the board ("p13", "bar0", "off1") as it is said. */
function placeName(place) {
  if (place.startsWith("bar")) return t("say.bar");
  if (place.startsWith("off")) return t("say.tray");
  return t("say.point", { n: Number(place.slice(1)) });
}

/** Items said as a list: "a, b and c", or with "or" (the catalogue's words: the browser's own
 * lists lack some of the page's languages). */
function list(items, or = false) {
  if (items.length < 2) return items.join("");
  return t(or ? "say.or" : "say.and", { first: items.slice(0, -1).join(t("say.separator")), last: items.at(-1) });
}


/** One step in words: {from, to} on the viewer's numbers, and whether it hit. */
function stepText(from, to, hit) {
  let text;
  if (to === 0) text = t("say.bearOff", { from });
  else if (from === 25) text = t("say.enter", { to });
  else text = t("say.step", { from, to });
  return hit ? t("say.hitting", { step: text }) : text;
}

/** A record's play in words, on the viewer's numbers (the way round `state`'s board says). */
function playText(state, entry) {
  const seen = (point) => viewerPoint(point, entry.seat, hooks.view, state.board.travel);
  return list(entry.steps.map((step) => stepText(seen(step.from), seen(step.to), step.hit)));
}

function entryText(state, entry) {
  const player = hooks.nameOf(state, entry.seat);
  const key = (name) => hooks.about(state, entry.seat, name);
  switch (entry.kind) {
    case "opening":
      return t("say.opening", {
        player: hooks.nameOf(state, 0), first: entry.dice[0],
        other: hooks.nameOf(state, 1), second: entry.dice[1],
      });
    case "play": {
      const dice = { player, first: entry.dice[0], second: entry.dice[1] };
      if (entry.play === null) return t(key("say.dance"), dice);
      return t(key(entry.auto ? "say.forced" : "say.played"), { ...dice, steps: playText(state, entry) });
    }
    case "double":
    case "beaver":
      return t(key(`record.${entry.kind}`), { player, value: entry.value });
    case "resign":
      return t(key("record.resign"), { player, level: t(`resign.level.${entry.level}`) });
    case "name":
      return t(key("record.name"), { player, value: entry.value });
    default:
      return t(key(`record.${entry.kind}`), { player });
  }
}

const MOVING = ["move", "confirm"];

/** The news between two states of a match, in the order it happened. */
function news(before, after) {
  const lines = [];
  const mover = after.on_roll;
  const human = (seat) => after.seats[seat].kind === "human";
  const sameTurn = MOVING.includes(before.phase) && MOVING.includes(after.phase)
    && before.on_roll === mover && before.game_number === after.game_number;
  // A person's steps as they are made (the computer's are said with its play, whole).
  if (sameTurn && human(mover)) {
    const made = after.made.slice(before.made.length);
    // A hit sends a checker to the other side's bar; the last step made is the one that did.
    const hit = after.board.bar[1 - mover] > before.board.bar[1 - mover];
    made.forEach((step, i) => lines.push(stepText(step.board_from, step.board_to, hit && i === made.length - 1)));
    const undone = before.made.slice(after.made.length);
    for (const step of undone.reverse()) {
      lines.push(t("say.undone", { step: stepText(step.board_from, step.board_to, false) }));
    }
  }
  let opening = false;
  for (const game of after.record) {
    const earlier = before.record.find((each) => each.number === game.number);
    for (const entry of game.entries.slice(earlier ? earlier.entries.length : 0)) {
      opening ||= entry.kind === "opening";
      lines.push(entryText(after, entry));
    }
    if (game.result && !(earlier && earlier.result)) lines.push(hooks.resultOf(after, game.result));
  }
  // A person's roll, to be played now (the opening roll's dice are said as such).
  if (after.phase === "move" && !sameTurn && !opening && human(mover) && after.dice.length) {
    const [first, second] = after.dice.map((die) => die.value);
    lines.push(t(hooks.about(after, mover, "say.roll"), { player: hooks.nameOf(after, mover), first, second }));
  }
  return lines;
}
