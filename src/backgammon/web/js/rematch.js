// A rematch, in the end-of-match panel: offered by either player (between people online, the
// other accepts or declines it; against the computer or at one screen it starts at once).
// Once it has started, each page asks for its own seat in it with its own token (the server
// makes each seat's token for that seat alone) and shows it: both boards move to the new
// match without a new invite. What changes is said in #announcements (announce.js).

import { say } from "./announce.js";
import { answerRematch, offerRematch, refusal, takeRematch } from "./api.js";
import { t } from "./i18n.js";
import { seatsHeld } from "./seats.js";

const $ = (selector) => document.querySelector(selector);

const rematch = {
  state: null, // state(): the page's state of its match (from app.js)
  show: null, // show(state): show a state of the page's match (from app.js)
  open: null, // open(id): show match `id` (from app.js)
  entering: null, // the rematch this page is on its way to
};

/** Wire the panel's buttons. `state()` is the page's state, `show(state)` shows a new one of
 * its match, `open(id)` shows another match. */
export function setUpRematch({ state, show, open }) {
  Object.assign(rematch, { state, show, open });
  $("#rematch-offer").addEventListener("click", () => send((current, seat) => offerRematch(current.id, seat)));
  $("#rematch-accept").addEventListener("click", () => send((current, seat) => answerRematch(current.id, seat, true)));
  $("#rematch-decline").addEventListener("click", () => send((current, seat) => answerRematch(current.id, seat, false)));
  $("#rematch-open").addEventListener("click", () => enter(rematch.state().id));
}

/** Where the rematch of `state` stands for this browser: null where it holds no seat or the
 * match goes on; else {offer: "none" | "mine" | "theirs", started}. */
function standing(state) {
  const held = seatsHeld(state.id);
  if (!state.match_over || !held.length) return null;
  const by = state.rematch ? state.rematch.offered_by : null;
  const offer = by === null ? "none" : held.includes(by) ? "mine" : "theirs";
  return { offer, started: Boolean(state.rematch && state.rematch.id) };
}

/** What the panel says of the rematch of `state` ("" for nothing). */
function rematchText(state) {
  const now = standing(state);
  if (!now) return "";
  if (now.started) return t("rematch.started");
  return { none: "", mine: t("rematch.waiting"), theirs: t("rematch.offered") }[now.offer];
}

/** The rematch's part of the end-of-match panel, for `state`. */
export function renderRematch(state) {
  const now = standing(state);
  const text = rematchText(state);
  $("#rematch-text").textContent = text;
  $("#rematch-text").hidden = !text;
  $("#rematch-offer").hidden = !now || now.started || now.offer !== "none";
  $("#rematch-accept").hidden = !now || now.started || now.offer !== "theirs";
  $("#rematch-decline").hidden = $("#rematch-accept").hidden;
  $("#rematch-open").hidden = !now || !now.started;
}

/** Whether two states of a match show its rematch alike (a change keeps the version). */
export function sameRematch(one, other) {
  return JSON.stringify(one.rematch) === JSON.stringify(other.rematch);
}

/** Say what changed of the rematch from `before` to `after` (states of one match), and go to
 * the rematch once it has started. */
export function rematchChanged(before, after) {
  if (!before || before.id !== after.id || sameRematch(before, after)) return;
  const was = standing(before);
  const now = standing(after);
  if (!now) return;
  if (was && was.offer === "mine" && now.offer === "none" && !now.started) say(t("rematch.declined"));
  else say(rematchText(after));
  if (now.started) enter(after.id);
}

/** Send the request `request(state, seat)` makes for the seat this browser holds, and show
 * the state it answers; the keyboard's focus goes on to what the panel says. */
async function send(request) {
  const current = rematch.state();
  if (!current) return;
  $("#message").textContent = "";
  try {
    rematch.show(await request(current, seatsHeld(current.id)[0]));
  } catch (error) {
    $("#message").textContent = t(refusal(error, "error.refused"));
    return;
  }
  if (!$("#rematch-text").hidden) $("#rematch-text").focus({ preventScroll: true });
}

/** Take this browser's seat in the rematch of match `id` and show it. */
async function enter(id) {
  if (rematch.entering === id) return;
  rematch.entering = id;
  try {
    const seated = await takeRematch(id);
    history.pushState(null, "", `?match=${encodeURIComponent(seated.id)}`);
    await rematch.open(seated.id);
    // The panel has gone with the match that ended: the keyboard goes on to the opening roll.
    $(".controls button.primary:not([hidden])")?.focus({ preventScroll: true });
  } catch (error) {
    $("#message").textContent = t(refusal(error, "error.refused"));
  } finally {
    rematch.entering = null;
  }
}
