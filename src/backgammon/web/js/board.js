// The board in SVG: a renderer of what the server sends, which knows no rules.
//
// The model names every place a checker can be: "p1".."p24" (the viewer's point numbers),
// "bar0"/"bar1" and "off0"/"off1" (by seat). The viewer's home board is at the bottom right.
// The renderer draws the checkers, the dice, the cube and the highlights it is told, and
// reports clicks (and Enter or Space) on a place, or on the board as a whole.
//
// For the keyboard and screen readers every place is named (its checkers, whose, and what it
// offers now); the places a checker may leave or reach are buttons, and the places come in
// the order the mover's checkers travel, so Tab goes from a checker on to where it can go.
// No highlight is told by colour alone: a checker that can move has a solid outline, a point
// it may go to a dashed one and a dashed ring where it would land, the picked-up checker a
// thick rim, and one side's checkers carry an inner ring.
//
// The other games (a model with a `travel`) add: a checker pinned under a point drawn at its
// edge, under the pinner's (Plakoto); the checkers waiting to enter drawn as slabs at the far
// end of their bar (Acey-deucey); and each side's way round the board, an arrow where its
// checkers go from one row to the other (Fevga and Long Nardy: both sides the same way).

import { formatNumber, t, plural } from "./i18n.js";
import { viewerPoint } from "./moves.js";

const SVG = "http://www.w3.org/2000/svg";
const R = 17; // checker radius
const STACK = 5; // checkers drawn on a point before the count is written on the top one
const TOP = 22;
const BOTTOM = 418;
const MIDDLE = 220;
const POINT_DEPTH = 170;
const BAR_X = 315;
const TRAY_X = 620;
const CUBE_X = 25;
const HALF_X = { right: 455, left: 175 };

// The drawing's extent: from the cube's touch area at the left to the trays at the right, no
// wider, so that on a phone the points are as wide as the screen allows (24 CSS px at 390).
export const VIEWBOX = "4 0 648 440";

/** The centre x of the viewer's point n, and whether it lies on the bottom row. */
function pointColumn(n) {
  if (n <= 6) return { x: 555 - 40 * (n - 1), bottom: true };
  if (n <= 12) return { x: 275 - 40 * (n - 7), bottom: true };
  if (n <= 18) return { x: 75 + 40 * (n - 13), bottom: false };
  return { x: 355 + 40 * (n - 19), bottom: false };
}

function el(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

function checker(parent, x, y, colour, label) {
  // One group a checker, so that it slides as one (slideSteps).
  const piece = el("g", { class: "piece", "data-x": x, "data-y": y }, parent);
  el("circle", { cx: x, cy: y, r: R, class: `checker checker--${colour}` }, piece);
  // Black's inner ring tells the sides apart where their colours do not (print, low vision).
  if (colour === "black") el("circle", { cx: x, cy: y, r: R * 0.55, class: "checker-ring" }, piece);
  if (label !== null) {
    const text = el("text", { x, y: y + 5, class: `checker-count checker-count--${colour}` }, piece);
    text.textContent = formatNumber(label);
  }
}

function stackedCheckers(parent, count, colour, x, y0, dy, limit) {
  const shown = Math.min(count, limit);
  for (let i = 0; i < shown; i += 1) {
    const label = i === shown - 1 && count > limit ? count : null;
    checker(parent, x, y0 + dy * i, colour, label);
  }
}

/** A ring round the checker at height `index` of `place`: "lifted" (the one picked up) or
 * "landing" (where it would go), drawn apart from colour (css/style.css). */
function ring(parent, place, index, model, kind) {
  const { x, y } = checkerSpot(place, index, model.view);
  const group = el("g", { class: kind, "aria-hidden": "true" }, parent);
  el("circle", { cx: x, cy: y, r: R + 1, class: "ring-edge" }, group);
  el("circle", { cx: x, cy: y, r: R + 1, class: "ring-line" }, group);
}

/** Make a group a place the player can act on: focusable, a button for screen readers. */
function interactive(group, place, model, handlers, label) {
  const active = model.sources.has(place) || model.targets.has(place) || model.selected === place;
  group.setAttribute("data-place", place);
  group.classList.add("place");
  group.classList.toggle("is-source", model.sources.has(place));
  group.classList.toggle("is-target", model.targets.has(place));
  group.classList.toggle("is-selected", model.selected === place);
  const states = [];
  if (model.selected === place) states.push(t("place.selected"));
  else if (model.targets.has(place)) states.push(t("place.target"));
  else if (model.sources.has(place)) states.push(t("place.source"));
  group.setAttribute("aria-label", [label, ...states].join(", "));
  group.setAttribute("role", active ? "button" : "img");
  if (active) group.setAttribute("tabindex", "0");
  const act = (event) => {
    event.stopPropagation();
    handlers.onPlace(place);
  };
  group.addEventListener("click", act);
  group.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      act(event);
    }
  });
}

function checkersLabel(key, count, colour, params = {}) {
  if (count === 0) return t(`${key}.empty`, params);
  return plural(`${key}.checkers`, count, { ...params, colour: t(`colour.${colour}`) });
}

function drawPoint(layer, n, model, handlers) {
  const { x, bottom } = pointColumn(n);
  const group = el("g", { class: "point" }, layer);
  const base = bottom ? BOTTOM : TOP;
  const tip = bottom ? BOTTOM - POINT_DEPTH : TOP + POINT_DEPTH;
  el("rect", {
    x: x - 20, y: bottom ? MIDDLE + 10 : TOP, width: 40, height: BOTTOM - MIDDLE - 10,
    class: "point-area",
  }, group);
  el("polygon", {
    points: `${x - 20},${base} ${x + 20},${base} ${x},${tip}`,
    class: `triangle triangle--${n % 2 ? "odd" : "even"}`,
  }, group);
  const point = model.points[n - 1];
  const colour = point.seat === null ? null : model.colours[point.seat];
  // A checker pinned here lies at the edge, under the pinner's.
  const pinned = model.pinnedAt?.get(n);
  const under = pinned === undefined ? 0 : 1;
  const y0 = bottom ? BOTTOM - R : TOP + R;
  const dy = bottom ? -2 * R : 2 * R;
  if (under) {
    checker(group, x, y0, model.colours[pinned], null);
    group.lastChild.classList.add("is-pinned");
  }
  if (point.count) stackedCheckers(group, point.count, colour, x, y0 + dy * under, dy, STACK - under);
  if (model.selected === `p${n}`) ring(group, `p${n}`, point.count - 1 + under, model, "lifted");
  // Where the checker would land: on top of the mover's own, or over the blot it hits.
  if (model.targets.has(`p${n}`)) ring(group, `p${n}`, point.seat === model.mover ? point.count + under : 0, model, "landing");
  group.setAttribute("data-count", String(point.count));
  group.setAttribute("data-seat", point.seat === null ? "" : String(point.seat));
  if (under) group.setAttribute("data-pinned", String(pinned));
  const label = [checkersLabel("point", point.count, colour, { n })];
  if (under) label.push(t("point.pinned", { colour: t(`colour.${model.colours[pinned]}`) }));
  interactive(group, `p${n}`, model, handlers, label.join(", "));
  const number = el("text", { x, y: bottom ? 434 : 14, class: "point-number", "aria-hidden": "true" }, layer);
  number.textContent = formatNumber(n);
}

function drawBar(layer, seat, model, handlers) {
  const mine = seat === model.view;
  const group = el("g", { class: "bar" }, layer);
  el("rect", {
    x: BAR_X - 20, y: mine ? MIDDLE : TOP, width: 40, height: mine ? BOTTOM - MIDDLE : MIDDLE - TOP,
    class: "bar-area",
  }, group);
  // Checkers still to enter (Acey-deucey) are counted on the bar too: drawn apart, as slabs
  // at its far end, the checkers sent back there above them.
  const waiting = model.waiting ? model.waiting[seat] : 0;
  const count = model.bar[seat] - waiting;
  const colour = model.colours[seat];
  stackedCheckers(group, count, colour, BAR_X, mine ? MIDDLE + 50 : MIDDLE - 50, mine ? 2 * R : -2 * R, waiting ? 2 : 4);
  for (let i = 0; i < waiting; i += 1) {
    const y = mine ? BOTTOM - 7 * (i + 1) : TOP + 7 * i + 1;
    el("rect", { x: BAR_X - 16, y, width: 32, height: 6, rx: 2, class: `slab is-waiting checker--${colour}` }, group);
  }
  if (model.selected === `bar${seat}`) ring(group, `bar${seat}`, Math.max(count - 1, 0), model, "lifted");
  group.setAttribute("data-count", String(count));
  group.setAttribute("data-waiting", String(waiting));
  const label = [checkersLabel("bar", count, colour, { player: model.names[seat] })];
  if (waiting) label.push(t("bar.waiting", { count: waiting }));
  interactive(group, `bar${seat}`, model, handlers, label.join(", "));
}

function drawTray(layer, seat, model, handlers) {
  const mine = seat === model.view;
  const group = el("g", { class: "tray" }, layer);
  el("rect", {
    x: TRAY_X - 28, y: mine ? MIDDLE + 30 : TOP, width: 56, height: BOTTOM - MIDDLE - 30,
    class: "tray-area",
  }, group);
  const count = model.off[seat];
  const colour = model.colours[seat];
  for (let i = 0; i < count; i += 1) {
    const y = mine ? BOTTOM - 10 * (i + 1) : TOP + 10 * i;
    el("rect", {
      x: TRAY_X - 24, y, width: 48, height: 9, rx: 2, class: `slab checker--${colour}`,
      "data-x": TRAY_X, "data-y": y + 4.5,
    }, group);
  }
  if (count) {
    const text = el("text", {
      x: TRAY_X, y: mine ? BOTTOM - 10 * count - 6 : TOP + 10 * count + 16, class: "tray-count",
    }, group);
    text.textContent = formatNumber(count);
  }
  group.setAttribute("data-count", String(count));
  interactive(group, `off${seat}`, model, handlers, checkersLabel("tray", count, colour, {
    player: model.names[seat],
  }));
}

const PIPS = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

function die(parent, x, y, size, value, used, colour) {
  const group = el("g", { class: `die die--${colour}${used ? " is-used" : ""}` }, parent);
  el("rect", { x: x - size / 2, y: y - size / 2, width: size, height: size, rx: size / 6, class: "die-face" }, group);
  for (const [dx, dy] of PIPS[value]) {
    el("circle", { cx: x + dx * size * 0.27, cy: y + dy * size * 0.27, r: size / 11, class: "die-pip" }, group);
  }
  if (used) {
    // Struck through, not only faded.
    const half = size / 2;
    el("line", { x1: x - half, y1: y + half, x2: x + half, y2: y - half, class: "die-struck" }, group);
  }
}

/** The dice in the roller's half: the right half for the viewer, the left for the other. */
function drawDice(layer, model) {
  if (!model.openingTie && !model.thrown && !model.dice.length) return;
  const group = el("g", { class: "dice", role: "img" }, layer);
  if (model.thrown) {
    // An opening die thrown by its own player, in their half; the other's is to come.
    const { seat, die: value } = model.thrown;
    const x = seat === model.view ? HALF_X.right : HALF_X.left;
    el("rect", { x: x - 22, y: MIDDLE - 22, width: 44, height: 44, class: "touch-area" }, group);
    die(group, x, MIDDLE, 34, value, false, model.colours[seat]);
    group.setAttribute("aria-label", t("dice.thrown", { player: model.names[seat], value }));
    group.setAttribute("data-dice", `${value}`);
    group.setAttribute("data-thrown", `${seat}`);
    return;
  }
  if (model.openingTie) {
    // One die a seat, each in its own player's half.
    const [first, second] = model.openingTie;
    const mineFirst = model.view === 0;
    for (const x of [HALF_X.right, HALF_X.left]) {
      el("rect", { x: x - 22, y: MIDDLE - 22, width: 44, height: 44, class: "touch-area" }, group);
    }
    die(group, HALF_X.right, MIDDLE, 34, mineFirst ? first : second, false, model.colours[model.view]);
    die(group, HALF_X.left, MIDDLE, 34, mineFirst ? second : first, false, model.colours[1 - model.view]);
    group.setAttribute("aria-label", t("dice.openingTie", { value: first }));
    group.setAttribute("data-dice", `${first},${second}`);
    return;
  }
  // Whose dice: the mover's, or the last play's while they stay in view until the next roll.
  const owner = model.diceSeat ?? model.mover;
  const x0 = owner === model.view ? HALF_X.right : HALF_X.left;
  const size = model.dice.length > 2 ? 30 : 34;
  const gap = size + 8;
  const start = x0 - (gap * (model.dice.length - 1)) / 2;
  // The dice's touch area, larger than the dice drawn.
  el("rect", {
    x: start - size / 2 - 4, y: MIDDLE - 22, width: gap * (model.dice.length - 1) + size + 8, height: 44,
    class: "touch-area",
  }, group);
  model.dice.forEach((d, i) => die(group, start + gap * i, MIDDLE, size, d.value, d.used, model.colours[owner]));
  const faces = model.dice.map((d) => (d.used ? t("dice.used", { value: d.value }) : formatNumber(d.value)));
  group.setAttribute("aria-label", t("dice.label", { player: model.names[owner], dice: faces.join(", ") }));
  group.setAttribute("data-dice", model.dice.map((d) => d.value).join(","));
}

function drawCube(layer, model) {
  const { cube } = model;
  if (!cube.used && cube.value === 1) return;
  const offer = cube.offer;
  const value = offer ? offer.value : cube.value;
  const owner = offer ? 1 - offer.by : cube.owner;
  const y = owner === null ? MIDDLE : owner === model.view ? 380 : 60;
  const group = el("g", { class: `cube${offer ? " is-offered" : ""}`, role: "img" }, layer);
  // Its touch area is larger than the cube drawn (a finger's width on a phone).
  el("rect", { x: CUBE_X - 21, y: y - 22, width: 42, height: 44, class: "touch-area" }, group);
  el("rect", { x: CUBE_X - 18, y: y - 18, width: 36, height: 36, rx: 5, class: "cube-face" }, group);
  const text = el("text", { x: CUBE_X, y: y + 6, class: "cube-value" }, group);
  // A cube in the middle at 1 shows its highest face, as a real one does.
  text.textContent = formatNumber(owner === null && value === 1 ? 64 : value);
  let label;
  if (offer) label = t("cube.offered", { player: model.names[offer.by], value });
  else if (owner === null) label = t("cube.centred", { value });
  else label = t("cube.owned", { player: model.names[owner], value });
  group.setAttribute("aria-label", label);
  group.setAttribute("data-cube", `${value},${owner === null ? "" : owner}`);
}

/** Each side's way round the board, where its checkers go from one row to the other: the
 * viewer's down at the left; the opponent's up at the left (against the viewer) or at the
 * right (the same way round). Drawn only for the other games; screen readers hear the way in
 * the board's name. */
function drawTravel(layer, model) {
  const group = el("g", { class: "travel", "aria-hidden": "true" }, layer);
  const defs = el("defs", {}, group);
  const ways = [
    { seat: model.view, d: "M 92 200 Q 48 220 92 240" },
    {
      seat: 1 - model.view,
      d: model.travel === "same" ? "M 538 240 Q 582 220 538 200" : "M 94 232 Q 72 220 94 208",
    },
  ];
  for (const { seat, d } of ways) {
    const colour = model.colours[seat];
    const marker = el("marker", {
      id: `travel-arrow-${seat}`, viewBox: "0 0 10 10", refX: 7, refY: 5,
      markerWidth: 4, markerHeight: 4, orient: "auto",
    }, defs);
    el("path", { d: "M 0 0 L 10 5 L 0 10 z", class: `travel-head travel--${colour}` }, marker);
    el("path", { d, class: `travel-way travel--${colour}`, "marker-end": `url(#travel-arrow-${seat})`, "data-seat": seat }, group);
  }
}

/** The board's name for screen readers: the game's, and its way round where both sides go
 * the same way. */
function boardLabel(model) {
  if (!model.travel) return t(model.canRoll ? "board.labelRoll" : "board.label");
  const name = t(model.canRoll ? "board.labelGameRoll" : "board.labelGame", { game: model.gameName });
  return model.travel === "same" ? `${name}. ${t("board.travelSame")}` : name;
}

/**
 * Draw `model` into the <svg> element `svg`, replacing what was there.
 *
 * model: {view, mover, points: [{seat, count}] (24), bar, off (by seat), colours, names
 * (by seat), dice: [{value, used}], openingTie, thrown (an opening die thrown alone: {seat,
 * die}, or absent), cube, sources, targets (Sets of places), selected (a place or null),
 * canRoll}; the other games' add travel ("opposite" or "same"), pinned ([{point, seat}]),
 * waiting (by seat) and gameName. handlers: {onPlace(place), onBoard()}.
 */
export function renderBoard(svg, model, handlers) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", VIEWBOX);
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", boardLabel(model));
  model.pinnedAt = new Map((model.pinned || []).map((pin) => [pin.point, pin.seat]));
  svg.classList.toggle("can-roll", model.canRoll);
  el("rect", { x: 50, y: TOP - 4, width: 530, height: BOTTOM - TOP + 8, rx: 6, class: "frame" }, svg);
  el("rect", { x: 55, y: TOP, width: 240, height: BOTTOM - TOP, class: "felt" }, svg);
  el("rect", { x: 335, y: TOP, width: 240, height: BOTTOM - TOP, class: "felt" }, svg);
  // The places never overlap, so the order they are drawn in is free to be the focus order.
  if (model.travel) drawTravel(svg, model);
  for (const place of travelOrder(model.mover ?? model.view, model.view, model.travel)) {
    if (place.startsWith("p")) drawPoint(svg, Number(place.slice(1)), model, handlers);
    else if (place.startsWith("bar")) drawBar(svg, Number(place.slice(3)), model, handlers);
    else drawTray(svg, Number(place.slice(3)), model, handlers);
  }
  drawDice(svg, model);
  drawCube(svg, model);
  svg.onclick = () => handlers.onBoard();
}

/**
 * The places in the order `seat`'s checkers travel, on `view`'s board: from its bar over the
 * points from its 24 to its 1 into its tray; the other side's bar and tray last. The keyboard's
 * focus and a screen reader's reading follow it: on seat 0's board, seat 0's run "bar0", "p24",
 * "p23", ... "p1", "off0", and seat 1's "bar1", "p1", "p2", ... "p24", "off1"; where both go
 * the same way round (`travel` "same"), seat 1's "p12", ... "p1", "p24", ... "p13".
 */
export function travelOrder(seat, view, travel = "opposite") {
  const points = Array.from({ length: 24 }, (_, i) => `p${viewerPoint(24 - i, seat, view, travel)}`);
  return [`bar${seat}`, ...points, `off${seat}`, `bar${1 - seat}`, `off${1 - seat}`];
}

// The marks of a play (a hint's) over the board: drawn after the board, and again after each
// drawing of it, since renderBoard starts from nothing.

/** The centre of the checker at height `index` (0 at the edge) of a place, as drawn above. */
function checkerSpot(place, index, view) {
  if (place.startsWith("p")) {
    const { x, bottom } = pointColumn(Number(place.slice(1)));
    const height = Math.min(index, STACK - 1);
    return { x, y: bottom ? BOTTOM - R - 2 * R * height : TOP + R + 2 * R * height };
  }
  const mine = Number(place.slice(-1)) === view;
  if (place.startsWith("bar")) {
    const height = Math.min(index, 3);
    return { x: BAR_X, y: mine ? MIDDLE + 50 + 2 * R * height : MIDDLE - 50 - 2 * R * height };
  }
  return { x: TRAY_X, y: mine ? BOTTOM - 10 * index - 5 : TOP + 10 * index + 5 };
}

/**
 * Draw the steps of a play over the board in `svg`, replacing the marks drawn before (no
 * steps: none). Each step is an arrow from the checker that moves to where it lands, its ends
 * ringed and its number on the way; they do not take clicks, and screen readers skip them
 * (the hint's panel says the play in words).
 *
 * board: {view, points, bar, off} as the state gives them, before the steps; steps: [{from,
 * to, hit, number}] with from and to places ("p1".."p24", "bar0", "off1", ...). `layer`: the
 * marks' own class, so that two kinds live side by side ("play-marks", a hint's; "last-play",
 * the play just made).
 */
export function drawPlayMarks(svg, board, steps, layer = "play-marks") {
  svg.querySelector(`.${layer}`)?.remove();
  if (!steps.length) return;
  // The checkers on each place as the steps go, so that each arrow starts at the top checker.
  const counts = new Map();
  board.points.forEach((point, i) => counts.set(`p${i + 1}`, point.count));
  for (const seat of [0, 1]) {
    counts.set(`bar${seat}`, board.bar[seat]);
    counts.set(`off${seat}`, board.off[seat]);
  }
  const marks = el("g", { class: `play-marks-layer ${layer}`, "aria-hidden": "true" }, svg);
  const defs = el("defs", {}, marks);
  const marker = el("marker", {
    id: `${layer}-arrow`, viewBox: "0 0 10 10", refX: 8, refY: 5,
    markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse",
  }, defs);
  el("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "play-mark-head" }, marker);
  const badges = [];
  const arrows = el("g", {}, marks);
  const numbers = el("g", {}, marks); // over every arrow
  for (const step of steps) {
    const left = counts.get(step.from) || 1;
    const from = checkerSpot(step.from, left - 1, board.view);
    counts.set(step.from, left - 1);
    // A hit blot goes to the bar: the checker lands on an empty point.
    const landing = step.hit ? 0 : counts.get(step.to) || 0;
    const to = checkerSpot(step.to, landing, board.view);
    counts.set(step.to, landing + 1);
    // Along one side of the board the arrow bows toward the middle, clear of the checkers.
    const sameSide = (from.y > MIDDLE) === (to.y > MIDDLE);
    const bow = sameSide ? (from.y > MIDDLE ? -45 : 45) : 0;
    const control = { x: (from.x + to.x) / 2, y: (from.y + to.y) / 2 + bow };
    const group = el("g", {
      class: `play-mark${step.hit ? " is-hit" : ""}`,
      "data-from": step.from, "data-to": step.to, "data-number": step.number,
    }, arrows);
    el("circle", { cx: from.x, cy: from.y, r: R + 2, class: "play-mark-from" }, group);
    el("circle", { cx: to.x, cy: to.y, r: R + 2, class: "play-mark-to" }, group);
    el("path", {
      d: `M ${from.x} ${from.y} Q ${control.x} ${control.y} ${to.x} ${to.y}`,
      class: "play-mark-line", "marker-end": `url(#${layer}-arrow)`,
    }, group);
    // The number halfway along the curve; moved toward the middle of the board while it
    // would cover another's (the checkers of a double often go the same way).
    const mid = { x: (from.x + 2 * control.x + to.x) / 4, y: (from.y + 2 * control.y + to.y) / 4 };
    const inward = mid.y > MIDDLE ? -22 : 22;
    while (badges.some((badge) => Math.hypot(badge.x - mid.x, badge.y - mid.y) < 20)) mid.y += inward;
    badges.push(mid);
    el("circle", { cx: mid.x, cy: mid.y, r: 10, class: "play-mark-badge" }, numbers);
    const number = el("text", { x: mid.x, y: mid.y + 4, class: "play-mark-number" }, numbers);
    number.textContent = formatNumber(step.number);
  }
}

// Plays shown sliding: the board is drawn as it is after the play, and the checkers that moved
// slide there from where they stood (the Web Animations API: the drawing itself never changes,
// so the board once they have landed is the one drawn). Where the viewer asks for less motion
// (prefers-reduced-motion) they are drawn where they land at once, as before.

const SLIDE_MS = 220; // one step's slide

/** Whether plays slide on this screen. */
export function slidesPlays() {
  return typeof Element.prototype.animate === "function"
    && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * Slide the checkers of `steps` ([{from, to, hit}], places) on the board `svg`, drawn as it is
 * after them, from where they stood on `board` ({view, points, bar, off} before the steps),
 * one step after the other; a checker that goes on from where it landed goes on in one slide,
 * and a blot hit slides to the bar as the hitter lands. Returns the animations (none where
 * motion is reduced); while they run the board carries data-sliding.
 */
export function slideSteps(svg, board, steps) {
  if (!steps.length || !slidesPlays()) return [];
  const counts = new Map();
  board.points.forEach((point, i) => counts.set(`p${i + 1}`, point.count));
  for (const seat of [0, 1]) {
    counts.set(`bar${seat}`, board.bar[seat]);
    counts.set(`off${seat}`, board.off[seat]);
  }
  // Each checker's journey: its places' centres, and the step (its number) of each leg.
  const journeys = [];
  const hits = [];
  steps.forEach((step, index) => {
    const left = counts.get(step.from) || 1;
    const from = checkerSpot(step.from, left - 1, board.view);
    counts.set(step.from, left - 1);
    const landing = step.hit ? 0 : counts.get(step.to) || 0;
    const to = checkerSpot(step.to, landing, board.view);
    counts.set(step.to, landing + 1);
    const going = journeys.find((journey) => journey.at === step.from);
    if (going && !step.from.startsWith("off")) {
      going.legs.push({ index, to });
      going.at = step.to;
    } else {
      journeys.push({ start: from, legs: [{ index, to }], at: step.to });
    }
    if (step.hit) {
      const bar = `bar${step.to.startsWith("p") ? otherSeatOn(board, step.to) : 0}`;
      hits.push({ index, start: to, bar });
    }
  });
  // The checker that ends a journey: the top one of its last place, the next one down for an
  // earlier journey ending there too.
  const taken = new Map();
  const piece = (place) => {
    const group = svg.querySelector(`[data-place="${place}"]`);
    const shapes = group ? [...group.querySelectorAll(":scope > .piece, :scope > .slab")] : [];
    const used = taken.get(place) || 0;
    taken.set(place, used + 1);
    return shapes[shapes.length - 1 - used] || null;
  };
  const total = steps.length;
  const animations = [];
  const slide = (node, frames) => {
    const x = Number(node.dataset.x);
    const y = Number(node.dataset.y);
    const keyframes = frames.map(({ offset, spot }) => ({
      offset, transform: `translate(${spot.x - x}px, ${spot.y - y}px)`,
    }));
    keyframes.push({ offset: 1, transform: "translate(0px, 0px)" });
    node.classList.add("is-sliding");
    const animation = node.animate(keyframes, { duration: SLIDE_MS * total, easing: "linear" });
    animation.finished.catch(() => {}).finally(() => node.classList.remove("is-sliding"));
    animations.push(animation);
  };
  for (const journey of [...journeys].reverse()) {
    const node = piece(journey.at);
    if (!node) continue;
    const frames = [{ offset: 0, spot: journey.start }];
    let spot = journey.start;
    for (const leg of journey.legs) {
      frames.push({ offset: leg.index / total, spot });
      frames.push({ offset: (leg.index + 1) / total, spot: leg.to });
      spot = leg.to;
    }
    slide(node, frames);
  }
  for (const hit of hits) {
    const node = piece(hit.bar);
    if (!node) continue;
    slide(node, [
      { offset: 0, spot: hit.start },
      { offset: hit.index / total, spot: hit.start },
      { offset: (hit.index + 1) / total, spot: { x: Number(node.dataset.x), y: Number(node.dataset.y) } },
    ]);
  }
  if (animations.length) {
    svg.dataset.sliding = "true";
    svg.dataset.slides = String(Number(svg.dataset.slides || 0) + 1);
    Promise.allSettled(animations.map((animation) => animation.finished)).then(() => {
      // Another play's slides may have begun meanwhile.
      if (!svg.getAnimations({ subtree: true }).length) delete svg.dataset.sliding;
    });
  }
  return animations;
}

/** The seat of the blot on `place` of `board` (before the step that hits it). */
function otherSeatOn(board, place) {
  const point = board.points[Number(place.slice(1)) - 1];
  return point.seat ?? 0;
}
