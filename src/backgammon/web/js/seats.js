// The seats this browser holds, by match: each one's token (and, for the creator of an online
// match, its invite and whether the lobby lists it), kept in localStorage so that a reload or
// a return resumes the game. A match with no token here is watched: the page shows it and
// acts for nobody. From the seats held and a state: the seat this screen acts for now.

const KEY = "backgammon.seats";

// What this page holds, which holds even where the storage refuses to keep it.
let held = {};

function stored() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "{}");
    return kept && typeof kept === "object" ? kept : {};
  } catch {
    return {}; // storage refused (a private window, say), or garbled
  }
}

/** The seat token of match `id` and the seats it holds ({token, seats, invite, listed}), or
 * null. */
export function seatOf(id) {
  return held[id] || stored()[id] || null;
}

/** The match this browser made whose open invite is `invite` (its creator opened their own
 * link), or null. */
export function matchOfInvite(invite) {
  const all = { ...stored(), ...held };
  return Object.keys(all).find((id) => all[id] && all[id].invite === invite) || null;
}

/** The seats of match `id` this browser may act for: [] when it only watches. */
export function seatsHeld(id) {
  const seat = seatOf(id);
  return seat ? seat.seats : [];
}

/** Keep the token of match `id` that holds `seats` (and the invite to hand on, if any, and
 * whether the lobby lists its match). */
export function keepSeat(id, token, seats, { invite = null, listed = false } = {}) {
  held[id] = { token, seats, invite, listed };
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...stored(), [id]: held[id] }));
  } catch {
    // Not kept beyond this page, but played as held while it stays open.
  }
}

/** Forget the invite of match `id` once it is spent. */
export function inviteSpent(id) {
  const seat = seatOf(id);
  if (seat && seat.invite) keepSeat(id, seat.token, seat.seats, { listed: seat.listed });
}

/**
 * A seat handed over in the address (`#token=…&seats=0,1`: from another browser, or a test)
 * for match `id`: kept, and taken out of the address so that it is not shared by mistake.
 */
export function takeSeatFromAddress(id) {
  const given = new URLSearchParams(location.hash.slice(1));
  const token = given.get("token");
  if (!id || !token) return;
  const seats = (given.get("seats") || "0").split(",").map(Number).filter((seat) => seat === 0 || seat === 1);
  keepSeat(id, token, seats);
  history.replaceState(null, "", location.pathname + location.search);
}

/** The seat this screen acts for now, or null when the game waits for the computer, for the
 * opponent elsewhere, or for anyone at all where this screen only watches. */
export function actingSeat(state) {
  if (state.match_over) return null;
  const ours = seatsHeld(state.id);
  const mine = (seat) => state.seats[seat].kind === "human" && ours.includes(seat);
  if (state.to_act === null) return mine(0) ? 0 : mine(1) ? 1 : null;
  return mine(state.to_act) ? state.to_act : null;
}

/** Whether the seat this screen acts for now may take `action` ("roll", "double", ...). */
export function allowed(state, action) {
  const seat = actingSeat(state);
  return seat !== null && state.actions[seat].includes(action);
}

/** Whether an online game waits for this browser's player. */
export function waitsForMe(state) {
  return Boolean(state && state.online && !state.match_over && state.to_act !== null
    && seatsHeld(state.id).includes(state.to_act));
}

