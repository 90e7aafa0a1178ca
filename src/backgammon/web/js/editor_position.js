// The position in the editor (editor.js): where every checker of each side is, who is on roll,
// the dice, the cube and the match; the places a checker may be put, and the position as the
// server's editor API takes it and gives it back.
//
// A place is named as the board names it: "p1" to "p24" on seat 0's numbers, "bar0", "bar1",
// "off0", "off1".

import { ApiError } from "./api.js";
import { has, t } from "./i18n.js";

export const editor = {
  variant: "standard",
  perSide: 15,
  // Each seat's checkers on its own point numbers: 24 points, then the bar.
  boards: [new Array(25).fill(0), new Array(25).fill(0)],
  onRoll: 0,
  dice: null,
  cubeValue: 1,
  cubeOwner: null,
  length: 0,
  score: [0, 0],
  crawford: false,
  selected: null,
  checked: null, // the server's answer for the position shown, or null while it is not valid
  asked: 0, // the latest check asked for: an earlier answer that comes later is dropped
  timer: null,
};

/** The sentence for a failed request: the rules' refusal in the page's language where it
 * names one the catalogue words, else the server's reason. */
export function failure(error, key) {
  if (!(error instanceof ApiError)) return t("error.network");
  if (error.status === 429 || error.status === 503) return t("error.tooMany");
  if (error.status !== 422) return t("error.network");
  if (error.code && has(`editor.refusal.${error.code}`)) return t(`editor.refusal.${error.code}`);
  return t(key, { reason: error.message });
}

export function seatOf(place) {
  if (place.startsWith("p")) {
    const n = Number(place.slice(1));
    if (editor.boards[0][n - 1]) return 0;
    if (editor.boards[1][24 - n]) return 1;
    return null;
  }
  return Number(place.slice(-1));
}

export function off(seat) {
  return editor.perSide - editor.boards[seat].reduce((sum, count) => sum + count, 0);
}

export function countOf(place) {
  if (place.startsWith("p")) {
    const n = Number(place.slice(1));
    return editor.boards[0][n - 1] || editor.boards[1][24 - n];
  }
  const seat = Number(place.slice(-1));
  return place.startsWith("bar") ? editor.boards[seat][24] : off(seat);
}

/** The index in `seat`'s board of a point or bar place. */
function indexOf(place, seat) {
  if (place.startsWith("bar")) return 24;
  const n = Number(place.slice(1));
  return seat === 0 ? n - 1 : 24 - n;
}

const PLACES = [
  ...Array.from({ length: 24 }, (_, i) => `p${i + 1}`), "bar0", "bar1", "off0", "off1",
];

export function sources() {
  return new Set(PLACES.filter((place) => countOf(place) > 0));
}

/** Where a checker of `place` may be put: any point free or its side's, its bar, its tray. */
export function targetsOf(place) {
  const seat = seatOf(place);
  if (seat === null || countOf(place) === 0) return new Set();
  const targets = PLACES.filter((to) => {
    if (to === place) return false;
    if (to.startsWith("p")) return seatOf(to) === null || seatOf(to) === seat;
    return Number(to.slice(-1)) === seat;
  });
  return new Set(targets);
}

/** Move one checker from `from` to `to`, if it may go there; whether it moved. */
export function move(from, to) {
  const seat = seatOf(from);
  if (seat === null || !targetsOf(from).has(to)) return false;
  if (!from.startsWith("off")) editor.boards[seat][indexOf(from, seat)] -= 1;
  if (!to.startsWith("off")) editor.boards[seat][indexOf(to, seat)] += 1;
  return true;
}

/** The position as the server takes it (POST /api/editor/ids). */
export function asked() {
  return {
    variant: editor.variant,
    checkers: editor.boards,
    on_roll: editor.onRoll,
    dice: editor.dice,
    cube_value: editor.cubeValue,
    cube_owner: editor.cubeOwner,
    length: editor.length,
    score: editor.score,
    crawford: editor.crawford,
  };
}

/** Take the server's answer (a position checked or read) as the position edited. */
export function take(answer) {
  editor.variant = answer.variant;
  editor.perSide = answer.per_side;
  editor.boards = answer.checkers.map((board) => [...board]);
  editor.onRoll = answer.on_roll;
  editor.dice = answer.dice;
  editor.cubeValue = answer.cube_value;
  editor.cubeOwner = answer.cube_owner;
  editor.length = answer.length;
  editor.score = answer.score;
  editor.crawford = answer.crawford;
  editor.selected = null;
}

/** The pips `seat` has yet to bear off. */
export function pips(seat) {
  return editor.boards[seat].reduce((sum, count, index) => sum + count * (index + 1), 0);
}
