// What the state's steps allow from one place of the board: pure functions of the steps the
// server offers, so that neither a click, a drag nor a key can ask for a step it did not offer.
//
// A step is the server's {from, to, board_from, board_to}: from/to on the mover's numbers (what
// an action sends), board_from/board_to on the viewer's board (25 the bar, 0 the tray).

/**
 * The viewer's number of a point given on `mover`'s numbers (the bar 25 and off 0 stay): the
 * opponent's point p is the viewer's 25 - p, or, where both sides go the same way round the
 * board (`travel` "same": Fevga, Long Nardy), p - 12 or p + 12.
 */
export function viewerPoint(point, mover, view, travel = "opposite") {
  if (point === 25 || point === 0 || mover === view) return point;
  if (travel === "same") return point > 12 ? point - 12 : point + 12;
  return 25 - point;
}

/** The place on the board of a step's end: a point, or the mover's bar or tray. */
export function placeOf(location, mover) {
  if (location === 25) return `bar${mover}`;
  if (location === 0) return `off${mover}`;
  return `p${location}`;
}

/** The places a checker may leave now. */
export function sourcesOf(steps, mover) {
  return new Set(steps.map((step) => placeOf(step.board_from, mover)));
}

/** The places the checker on `from` may go to now (empty when it may not move). */
export function targetsOf(steps, mover, from) {
  return new Set(
    steps
      .filter((step) => placeOf(step.board_from, mover) === from)
      .map((step) => placeOf(step.board_to, mover)),
  );
}

/** The step from place `from` to place `to`, or null when the server does not offer it. */
export function stepBetween(steps, mover, from, to) {
  const found = steps.find(
    (step) => placeOf(step.board_from, mover) === from && placeOf(step.board_to, mover) === to,
  );
  return found || null;
}

/**
 * The step a click on place `from` makes at once, or null when the click should select.
 *
 * It is obvious only when every step from there ends on one and the same place: a checker that
 * one die moves and the other cannot, or a double. When the two dice lead to two places the
 * player has a choice to make (which die first, or which point), so the checker is selected
 * and its places highlighted instead.
 */
export function obviousStep(steps, mover, from) {
  const targets = targetsOf(steps, mover, from);
  if (targets.size !== 1) return null;
  const [to] = targets;
  return stepBetween(steps, mover, from, to);
}
