// The play just made, by either side, marked on the board until the next roll: where each
// checker left from and where it landed, numbered, as a hint's play is (drawPlayMarks).

import { drawPlayMarks } from "./board.js";
import { viewerPoint } from "./moves.js";

/**
 * The last play of the game in play, while nothing has happened since but its being over
 * (the next player has not rolled): {seat, dice, steps}, or null.
 */
export function lastPlay(state) {
  if (state.phase !== "roll" || !state.record.length) return null;
  const entries = state.record[state.record.length - 1].entries;
  const last = entries[entries.length - 1];
  if (!last || last.kind !== "play" || !last.steps?.length) return null;
  return { seat: last.seat, dice: last.dice, steps: last.steps };
}

/** Draw (or take away) the marks of the last play on the board `svg` of `state`. */
export function markLastPlay(svg, state) {
  const shown = lastPlayOnBoard(state);
  if (!shown) {
    drawPlayMarks(svg, null, [], "last-play");
    return;
  }
  drawPlayMarks(svg, shown.before, shown.marks, "last-play");
}

/**
 * The last play of `state` (lastPlay) on its board: {seat, marks: [{from, to, hit, number}]
 * (places of the board drawn for state.view), before (the board before the play)}, or null.
 */
export function lastPlayOnBoard(state) {
  const play = lastPlay(state);
  if (!play) return null;
  const { seat, steps } = play;
  const view = state.view;
  // A step's point on the mover's numbers (25 the bar, 0 off), as a place on this board.
  const place = (point) => {
    if (point === 25) return `bar${seat}`;
    if (point === 0) return `off${seat}`;
    return `p${viewerPoint(point, seat, view, state.board.travel)}`;
  };
  const marks = steps.map((step, index) => ({
    from: place(step.from), to: place(step.to), hit: step.hit, number: index + 1,
  }));
  return { seat, marks, before: boardBefore(state.board, view, seat, marks) };
}

/** The board before `marks` were played by `seat`: each step taken back, a hit blot put back. */
function boardBefore(board, view, seat, marks) {
  const points = board.points.map((point) => ({ ...point }));
  const bar = [...board.bar];
  const off = [...board.off];
  const move = (placeName, owner, by) => {
    if (placeName.startsWith("bar")) bar[owner] += by;
    else if (placeName.startsWith("off")) off[owner] += by;
    else {
      const point = points[Number(placeName.slice(1)) - 1];
      point.count += by;
      point.seat = point.count > 0 ? owner : null;
    }
  };
  for (const step of [...marks].reverse()) {
    move(step.to, seat, -1);
    move(step.from, seat, 1);
    if (step.hit) {
      bar[1 - seat] -= 1;
      move(step.to, 1 - seat, 1);
    }
  }
  return { view, points, bar, off };
}
