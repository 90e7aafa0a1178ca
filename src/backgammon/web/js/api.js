// The server's API: one function per request, and the WebSocket of live updates. A request
// about a match carries the seat token this browser holds for it (seats.js), if any.

import { csrfHeaders } from "./csrf.js";
import { keepSeat, seatOf } from "./seats.js";

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

/**
 * The message key for a failed request: a plea to wait when the server limits this page's
 * pace or is busy (429, 503), a network failure when it could not answer, else ``refused``.
 */
export function refusal(error, refused) {
  if (!(error instanceof ApiError)) return "error.network";
  if (error.status === 429 || error.status === 503) return "error.tooMany";
  return error.status >= 500 ? "error.network" : refused;
}

/**
 * This page's name for itself, random: its WebSocket of updates gives it, and so do its
 * actions, so that the server does not push it the states its own actions make (their
 * answers carry them). Made with getRandomValues, which pages served over plain HTTP have too.
 */
const watcherName = Array.from(crypto.getRandomValues(new Uint8Array(16)),
  (byte) => byte.toString(16).padStart(2, "0")).join("");

async function request(method, path, body, match = null, extra = {}) {
  const headers = { ...extra, ...(body === undefined ? {} : { "Content-Type": "application/json" }) };
  const seat = match === null ? null : seatOf(match);
  if (seat) headers.Authorization = `Bearer ${seat.token}`;
  const response = await fetch(path, {
    method,
    headers: {
      ...headers,
      ...(method === "GET" ? {} : csrfHeaders()), // a signed-in page's token (csrf.js)
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new ApiError(response.status, data.detail || "");
    error.code = data.code || null; // a refusal a page may word in its language
    throw error;
  }
  return data;
}

/** Start a match; its token is kept in the browser, with the seats it holds (both at one
 * screen, else seat 0), an online match's invite to hand on and whether the lobby lists it. */
export async function createMatch(options) {
  const created = await request("POST", "/api/matches", options);
  const seats = options.opponent === "human" ? [0, 1] : [0];
  keepSeat(created.id, created.token, seats, { invite: created.invite, listed: Boolean(options.lobby) });
  return created;
}

/** What an invite offers before its seat is taken: its creator, length and rules, and
 * whether it is rated or a practice match. */
export function getInvite(invite) {
  return request("GET", `/api/invites/${encodeURIComponent(invite)}`);
}

/** Take the seat an invite gives ({id, seat, token}); its token is kept in the browser. */
export async function joinMatch(invite, name = "") {
  const joined = await request("POST", "/api/matches/join", name ? { invite, name } : { invite });
  keepSeat(joined.id, joined.token, [joined.seat]);
  return joined;
}

/** Take the seats of a match saved before seats had tokens (its state says `unheld`); the
 * token is kept in the browser. */
export async function takeSeats(id) {
  const taken = await request("POST", `/api/matches/${encodeURIComponent(id)}/take`, {});
  keepSeat(taken.id, taken.token, taken.seats);
  return taken;
}

/** The online matches waiting for an opponent. */
export function getLobby() {
  return request("GET", "/api/lobby");
}

/** The online matches being played, which anyone may watch. */
export function getLiveMatches() {
  return request("GET", "/api/matches/live");
}

export function getState(id, view) {
  return request("GET", `/api/matches/${encodeURIComponent(id)}?view=${view}`);
}

/** Make `action` on the version it names; the answer's record holds only what changed
 * after that version (lay it over the state held with `withRecord`). */
export function act(id, view, action) {
  const query = `view=${view}&record_since=${action.version}`;
  return request("POST", `/api/matches/${encodeURIComponent(id)}/actions?${query}`, action, id,
    { "Watcher-Id": watcherName });
}

/**
 * The whole state that `state` makes laid over `held`, the state this page holds: a state
 * with `record_since` carries only the record's changes after that version (the games from
 * the one in play then, the first from its entry `first_entry` on). Null when `held` cannot
 * take them (another match, or older than the version they start after): read the whole
 * state again.
 */
export function withRecord(state, held) {
  if (state.record_since === null || state.record_since === undefined) return state;
  if (!held || held.id !== state.id || held.version < state.record_since) return null;
  const first = state.record.length ? state.record[0].number : Infinity;
  const record = held.record.filter((game) => game.number < first);
  for (const game of state.record) {
    const old = held.record.find((each) => each.number === game.number);
    const kept = old ? old.entries.slice(0, game.first_entry) : [];
    record.push({ ...game, entries: kept.concat(game.entries), first_entry: 0 });
  }
  return { ...state, record, record_since: null };
}

/** Add `seat`'s own seed to the fair dice of the game in play, before its first roll. */
export function addSeed(id, seat, seed) {
  return request("POST", `/api/matches/${encodeURIComponent(id)}/seed`, { seat, seed }, id);
}

/** Offer a rematch of match `id`, over, for `seat` (started at once against the computer);
 * the state after it, drawn from `seat`'s side. */
export function offerRematch(id, seat) {
  return request("POST", `/api/matches/${encodeURIComponent(id)}/rematch`, { seat }, id);
}

/** Accept (`accept`: true) or decline the rematch of match `id` offered to `seat`; the state
 * after it. */
export function answerRematch(id, seat, accept) {
  return request("POST", `/api/matches/${encodeURIComponent(id)}/rematch/answer`, { seat, accept }, id);
}

/** This browser's seats in the rematch of match `id`, once started ({id, seats, token}): the
 * token, made for this browser's own seat, is kept in the browser. */
export async function takeRematch(id) {
  const seated = await request("GET", `/api/matches/${encodeURIComponent(id)}/rematch`, undefined, id);
  keepSeat(seated.id, seated.token, seated.seats);
  return seated;
}

/** The computer's advice to the seat whose turn it is: its best plays, or its cube decision,
 * with its reasons said in `lang`. */
export function getHint(id, view, lang) {
  const query = `view=${view}&lang=${encodeURIComponent(lang)}`;
  return request("GET", `/api/matches/${encodeURIComponent(id)}/hint?${query}`, undefined, id);
}

/** The tutor's judgement of `action` ("confirm" the play made, "double", "take", "drop")
 * before it is sent at `version`: what it loses and, past `threshold`, the better choice. */
export function judgeAction(id, { action, threshold, version, view, lang }) {
  const body = { action, threshold, version, view, lang };
  return request("POST", `/api/matches/${encodeURIComponent(id)}/tutor`, body, id);
}

/** The analysis of a match ({match: id}) or of an uploaded file ({upload: id}): the report
 * once done, else {status: "running", done, total}; the first asking starts it. */
export function analysisOf(source) {
  return source.match !== undefined
    ? request("GET", `/api/matches/${encodeURIComponent(source.match)}/analysis`, undefined, source.match)
    : request("GET", `/api/analyses/${encodeURIComponent(source.upload)}`);
}

/** Start a rollout (POST /api/rollouts): {id}. */
export function startRollout(question) {
  return request("POST", "/api/rollouts", question);
}

/** A rollout's state: its progress and its result so far. */
export function getRollout(id) {
  return request("GET", `/api/rollouts/${encodeURIComponent(id)}`);
}

/** Stop a rollout before its next piece: its state. */
export function cancelRollout(id) {
  return request("DELETE", `/api/rollouts/${encodeURIComponent(id)}`);
}

/** Check a position set in the editor and write its IDs (POST /api/editor/ids). */
export function positionIds(position) {
  return request("POST", "/api/editor/ids", position);
}

/** Read an ID (GNU Backgammon's or an XGID) of a variant back into a position, or without one
 * the variant's starting position (POST /api/editor/read). */
export function readPosition(question) {
  return request("POST", "/api/editor/read", question);
}

/** Ask the engine API (/api/v1/engine/) about a position: "eval", "move" (the best plays of
 * its dice) or "cube". */
export function askEngine(kind, question) {
  return request("POST", `/api/v1/engine/${kind}`, question);
}

/** Start the analysis of a .mat file's text: {id, status, done, total}. */
export function uploadMat(text) {
  return request("POST", "/api/analyses", { text });
}

/** The board of an analysed decision, from its gnubg IDs, drawn from seat 0's side. */
export function boardOf(positionId, matchId) {
  const query = new URLSearchParams({ position_id: positionId, match_id: matchId, view: "0" });
  return request("GET", `/api/board?${query}`);
}

export function matUrl(id) {
  return `/api/matches/${encodeURIComponent(id)}/mat`;
}

/** The chat of online match `id` ({messages, seat, muted}): its messages after message
 * `after`, as this browser's seat may see them (its mute), if it holds one. */
export function getChat(id, after = 0) {
  return request("GET", `/api/matches/${encodeURIComponent(id)}/chat?after=${after}`, undefined, id);
}

/** Write in the chat of match `id`: {channel, seat, text} or {channel, seat, phrase}; the
 * message kept. */
export function writeChat(id, message) {
  return request("POST", `/api/matches/${encodeURIComponent(id)}/chat`, message, id);
}

/** Mute (`muted`: true) the other player's messages for `seat`, or hear them again. */
export function muteChat(id, seat, muted) {
  return request("PUT", `/api/matches/${encodeURIComponent(id)}/chat/mute`, { seat, muted }, id);
}

/** Report chat message `message` of match `id`, for `seat`, to whoever runs the site. */
export function reportChat(id, message, seat) {
  return request("POST", `/api/matches/${encodeURIComponent(id)}/chat/${message}/report`, { seat }, id);
}

/** Call onState with each state the server pushes, each with only the record's changes since
 * the one before (`withRecord`); reconnects after a dropped connection, naming the last
 * version seen, so that the server sends only what was missed. A chat message pushed goes to
 * `onChat`; `onOpen` is called as each connection opens (the chat then reads what it has not
 * seen: js/chat.js). */
export function watch(id, view, onState, onLost, { onChat = () => {}, onOpen = () => {} } = {}) {
  let socket = null;
  let stopped = false;
  let since = -1;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = `view=${view}&since=${since}&record=changes&watcher=${watcherName}`;
    socket = new WebSocket(`${scheme}://${location.host}/api/matches/${encodeURIComponent(id)}/updates?${query}`);
    // Called as the socket opens, and again at its first message, sent once the server
    // pushes to it: what was said before then is read.
    let first = true;
    socket.onopen = onOpen;
    socket.onmessage = (event) => {
      if (first) onOpen();
      first = false;
      const state = JSON.parse(event.data);
      if (state.chat) {
        onChat(state.chat);
        return;
      }
      since = Math.max(since, state.version);
      onState(state);
    };
    socket.onclose = (event) => {
      if (stopped || event.code === 4404) return;
      onLost();
      setTimeout(open, 1000);
    };
  };
  open();
  return () => {
    stopped = true;
    if (socket) socket.close();
  };
}

// The trainer (/trainer): a signed-in player's deck on the server, or a deck this browser
// keeps, whose answers the server judges and reschedules without keeping them.

/** A finished, analysed match's mistakes dealt to the signed-in player's deck: {added, cards}. */
export function practiseMatch(id) {
  return request("POST", `/api/trainer/matches/${encodeURIComponent(id)}`);
}

/** The signed-in player's cards due now: {cards}. */
export function dueCards() {
  return request("GET", "/api/trainer/cards");
}

/** Answer a card of the signed-in player's deck: judged, rescheduled, the reasons in `lang`. */
export function answerCard(id, answer, lang) {
  return request("POST", `/api/trainer/cards/${id}/answer?lang=${encodeURIComponent(lang)}`, { answer });
}

/** Say how a right answer to a card of the signed-in player's deck felt: {due}. */
export function rateCard(id, rating) {
  return request("POST", `/api/trainer/cards/${id}/rating`, { rating });
}

/** How the signed-in player's deck stands. */
export function deckProgress() {
  return request("GET", "/api/trainer/progress");
}

/** A checker card's turn with the steps `made` ([from, to] on the mover's numbers): the
 * board after them, the dice, the next steps, and the play once whole. */
export function turnOf(card, made) {
  return request("POST", "/api/trainer/turn", {
    position_id: card.position_id, match_id: card.match_id, made,
  });
}

/** A finished, analysed match's mistakes of the seats this page holds, as cards to keep. */
export function matchMistakes(id) {
  return request("GET", `/api/matches/${encodeURIComponent(id)}/mistakes`, undefined, id);
}

/** Add cards this browser kept (each with its `match`) to the signed-in player's deck, those
 * it lacks: {added}. */
export function mergeCards(cards) {
  return request("POST", "/api/trainer/browser-cards", { cards });
}

/** Judge and reschedule a card this browser keeps (nothing is kept on the server); a right
 * answer rated as it felt, if `rating` is given. */
export function reviewCard(card, answer, lang, rating = null) {
  return request("POST", `/api/trainer/review?lang=${encodeURIComponent(lang)}`,
    rating ? { card, answer, rating } : { card, answer });
}
