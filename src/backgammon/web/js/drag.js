// Dragging a checker, by mouse, pen or finger alike (pointer events), over the board's <svg>.
//
// The board is redrawn from scratch on every state, so the listeners sit on the <svg> itself,
// which stays, and the dragged checker is a copy laid on top of the drawing. The page says
// which places a checker may go to (only the server's steps); the drag only reports where it
// was dropped. A press that does not move is left to be the click it is.

const THRESHOLD = 6; // CSS pixels a press moves before it becomes a drag (a click may wobble)

/**
 * Let the checkers of `svg` be dragged. hooks: targetsFor(place) -> the Set of places its
 * checker may go to (null or empty: it may not be dragged); onLift(place) when a drag starts
 * (the page highlights, as for a click); onDrop(from, to) when it is dropped on one of them;
 * onCancel() when it is dropped anywhere else or broken off (it goes back, nothing is sent).
 */
export function enableDrag(svg, hooks) {
  let drag = null;
  // A drag ends with the browser's click on whatever lies under it: that click is not one.
  let swallowClick = false;

  const placeAt = (x, y) => {
    const node = document.elementFromPoint(x, y)?.closest("[data-place]");
    return node && svg.contains(node) ? node.dataset.place : null;
  };

  /** The checker that travels: a copy of the top one on its place, the original dimmed. */
  const attachGhost = () => {
    if (drag.ghost && drag.ghost.isConnected) return;
    const group = svg.querySelector(`[data-place="${drag.place}"]`);
    const checkers = group ? group.querySelectorAll("circle.checker") : [];
    const top = checkers[checkers.length - 1];
    if (!top) return;
    top.classList.add("is-lifted");
    drag.ghost = top.cloneNode(false);
    drag.ghost.classList.remove("is-lifted");
    drag.ghost.classList.add("is-dragged");
    drag.ghost.setAttribute("aria-hidden", "true");
    svg.appendChild(drag.ghost);
  };

  const moveGhost = (x, y) => {
    attachGhost(); // again if a state arrived and redrew the board under the drag
    const matrix = svg.getScreenCTM();
    if (!drag.ghost || !matrix) return;
    const point = new DOMPoint(x, y).matrixTransform(matrix.inverse());
    drag.ghost.setAttribute("cx", String(point.x));
    drag.ghost.setAttribute("cy", String(point.y));
    const over = placeAt(x, y);
    for (const node of svg.querySelectorAll(".is-drop-over")) node.classList.remove("is-drop-over");
    if (over && drag.targets.has(over)) {
      svg.querySelector(`[data-place="${over}"]`)?.classList.add("is-drop-over");
    }
  };

  const finish = () => {
    if (drag && svg.hasPointerCapture(drag.pointerId)) svg.releasePointerCapture(drag.pointerId);
    window.removeEventListener("keydown", onKey, true);
    drag = null;
  };

  const cancel = () => {
    const lifted = drag && drag.lifted;
    if (drag && drag.ghost) drag.ghost.remove();
    finish();
    if (lifted) hooks.onCancel();
  };

  const onKey = (event) => {
    if (event.key === "Escape" && drag) {
      event.preventDefault();
      event.stopPropagation();
      cancel();
    }
  };

  svg.addEventListener("pointerdown", (event) => {
    swallowClick = false;
    if (drag || !event.isPrimary || event.button !== 0) return;
    const node = event.target.closest?.("[data-place]");
    if (!node || !svg.contains(node)) return;
    const place = node.dataset.place;
    const targets = hooks.targetsFor(place);
    if (!targets || targets.size === 0) return;
    drag = {
      pointerId: event.pointerId, place, targets, x0: event.clientX, y0: event.clientY,
      lifted: false, ghost: null,
    };
  });

  svg.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    if (!drag.lifted) {
      if (Math.hypot(event.clientX - drag.x0, event.clientY - drag.y0) < THRESHOLD) return;
      drag.lifted = true;
      // Captured, the drag goes on when the pointer leaves the board, and ends where it is let go.
      svg.setPointerCapture(event.pointerId);
      window.addEventListener("keydown", onKey, true);
      hooks.onLift(drag.place);
    }
    event.preventDefault();
    moveGhost(event.clientX, event.clientY);
  });

  svg.addEventListener("pointerup", (event) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    if (!drag.lifted) {
      finish(); // a click: the click handlers take it
      return;
    }
    swallowClick = true;
    const { place, targets } = drag;
    const to = placeAt(event.clientX, event.clientY);
    if (to && to !== place && targets.has(to)) {
      // The copy stays where it was dropped until the board is drawn with the step made.
      finish();
      hooks.onDrop(place, to);
    } else {
      cancel();
    }
  });

  svg.addEventListener("pointercancel", (event) => {
    if (drag && event.pointerId === drag.pointerId) cancel();
  });

  svg.addEventListener(
    "click",
    (event) => {
      if (!swallowClick) return;
      swallowClick = false;
      event.stopPropagation();
      event.preventDefault();
    },
    true,
  );
}
