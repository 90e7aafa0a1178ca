// Online play: the invite to hand on while an online match waits for its opponent, taking a
// seat by an invite (/join/<invite>, or a click in the lobby: lobby.js), the clocks of a match
// with a time control (clock.js), and the claim of a game the opponent has left.

import { ApiError, getInvite, joinMatch, refusal } from "./api.js";
import { renderClocks } from "./clock.js";
import { copyField } from "./copy.js";
import { t } from "./i18n.js";
import { clockText, gameText, setUpLobby, showLobby } from "./lobby.js";
import { inviteSpent, matchOfInvite, seatOf, seatsHeld } from "./seats.js";

export { showLobby };

const $ = (selector) => document.querySelector(selector);

const online = {
  open: null, // open(id): show match `id` (from app.js)
  refresh: null, // refresh(): read the state again (from app.js)
  claimTimer: null,
};

/** Set up the lobby, the invite's copy button and the claim buttons. `open(id)` shows a match;
 * `refresh()` reads its state again; `claim(action)` sends a claim. */
export function setUpOnline({ open, refresh, claim }) {
  online.open = open;
  online.refresh = refresh;
  const form = $("#setup-form");
  // From the lobby, the joiner's name is the one the front page's form beside it holds.
  setUpLobby({ join: (invite) => join(invite, String(new FormData(form).get("player_name") || "").trim()) });
  $("#invite-copy").addEventListener("click", () => copyField($("#invite-link"), $("#invite-copy")));
  for (const button of document.querySelectorAll("[data-claim]")) {
    button.addEventListener("click", () => claim({
      action: "claim", level: Number($("#claim-level").value), match: button.dataset.claim === "match",
    }));
  }
}

/** The address that gives the invite's seat. */
function inviteLink(invite) {
  return `${location.origin}/join/${encodeURIComponent(invite)}`;
}

/** An invite's address opened: say what it offers, ask the joiner's name, then take the
 * seat. */
export async function showJoin(invite) {
  // The creator opening their own link keeps their seat and waits for their friend.
  const own = matchOfInvite(invite);
  if (own) {
    history.replaceState(null, "", `/?match=${encodeURIComponent(own)}`);
    online.open(own);
    return;
  }
  $("#setup").hidden = true;
  $("#play").hidden = true;
  // A practice match, a clock and another game than backgammon are said before the join button shows: joining is agreeing
  // to them.
  const offer = await offerOf(invite);
  $("#join-practice").hidden = !offer.practice;
  $("#join-clock").hidden = !offer.clock;
  $("#join-clock").textContent = offer.clock ? clockText(offer.clock) : "";
  const other = offer.game && offer.game !== "backgammon";
  $("#join-game").hidden = !other;
  $("#join-game").textContent = other ? gameText(offer.game) : "";
  $("#join").hidden = false;
  const form = $("#join-form");
  form.onsubmit = (event) => {
    event.preventDefault();
    $("#join").hidden = true;
    join(invite, String(new FormData(form).get("player_name") || "").trim());
  };
  form.elements.namedItem("player_name").focus();
}

/** What `invite` offers (whether it is a practice match, its clock). An invite that cannot
 * be read says nothing here: the join itself then says why it fails (a spent or unknown
 * invite). */
async function offerOf(invite) {
  try {
    return await getInvite(invite);
  } catch {
    return { practice: false, clock: null };
  }
}

/** Take the seat `invite` gives (under `name`, if any), then show its match; a spent or
 * unknown invite says so. */
export async function join(invite, name = "") {
  $("#message").textContent = "";
  try {
    const joined = await joinMatch(invite, name);
    history.replaceState(null, "", `/?match=${encodeURIComponent(joined.id)}`);
    await online.open(joined.id);
  } catch (error) {
    const status = error instanceof ApiError ? error.status : 0;
    const key = status === 410 ? "error.inviteSpent" : status === 404 ? "error.inviteUnknown" : refusal(error, "error.refused");
    history.replaceState(null, "", "/");
    $("#setup-message").textContent = t(key);
    $("#setup").hidden = false;
    showLobby();
  }
}

/**
 * What an online match shows besides the board: the invite while the opponent has not come,
 * and the claim once the game has waited long enough for an opponent who has left (the page
 * reads the state again when that time comes, as nothing else would push it).
 */
export function renderOnline(state) {
  renderClocks(state, online.refresh);
  const seat = seatOf(state.id);
  const invite = state.waiting_for_opponent && seat && seat.invite;
  $("#invite").hidden = !invite;
  if (invite) $("#invite-link").value = inviteLink(seat.invite);
  else if (seat && seat.invite && !state.waiting_for_opponent) inviteSpent(state.id);
  const held = seatsHeld(state.id);
  const claimant = claimSeat(state);
  $(".controls .claim").hidden = claimant === null;
  clearTimeout(online.claimTimer);
  const claim = state.claim;
  if (claim && claimant === null && held.includes(1 - claim.against) && !held.includes(claim.against)) {
    const wait = Math.max(1000, Date.parse(claim.after) - Date.now() + 500);
    online.claimTimer = setTimeout(online.refresh, Math.min(wait, 2 ** 31 - 1));
  }
}

/** The seat this browser may claim the game for now, or null. */
export function claimSeat(state) {
  const seat = seatsHeld(state.id).find((held) => state.actions[held].includes("claim"));
  return seat === undefined ? null : seat;
}
