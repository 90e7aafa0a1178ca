// The keyboard's focus across the page's redraws. The board is drawn afresh on every state,
// and a control goes once used (Roll, Confirm): either would drop the focus to the page's
// start, and a keyboard or screen reader's user would have to find their way back each turn.

// The focus was lost with a control and nothing could take it yet (the computer's turn).
let adrift = false;

/**
 * Where the keyboard's focus is before a redraw: the place of the board that has it ("" for
 * the board itself), "control" for a control's button, or null (elsewhere, or not the
 * keyboard's: a click leaves the focus where the person put it).
 */
export function keyboardFocus(board) {
  const node = document.activeElement;
  if (!node || !node.matches(":focus-visible")) return null;
  if (board.contains(node)) return node.dataset.place || "";
  return node.closest(".controls") ? "control" : null;
}

/** After a redraw, give the keyboard's focus back (see keyboardFocus). When nothing can take
 * it (the computer's turn), it goes to the first thing the person can do once there is one,
 * unless they have put it somewhere themselves meanwhile. */
export function keepFocus(board, focused) {
  const active = document.activeElement;
  if (focused === null && !(adrift && (!active || active === document.body))) {
    adrift = false;
    return;
  }
  if (focused === "control" && active && active !== document.body && !active.closest("[hidden]")) return;
  adrift = !refocus(board, focused === "control" || focused === null ? "" : focused);
}

/** Focus the same place if it can still be acted on, else a checker that can move, else the
 * control that comes next (Confirm, Roll, Take...); whether one took the focus. */
function refocus(board, place) {
  const candidates = [
    place && board.querySelector(`[data-place="${place}"][tabindex]`),
    board.querySelector(".is-source[tabindex]"),
    ...document.querySelectorAll(".controls button.primary"),
    ...document.querySelectorAll('.controls [data-action]:not([data-action="undo"]):not([data-action="resign"])'),
  ];
  for (const node of candidates) {
    if (!node || node.closest("[hidden]")) continue;
    node.focus();
    if (document.activeElement === node) return true;
  }
  return false;
}
