// The chat of an online match between people (the server's /api/matches/{id}/chat): the
// players' messages, and the spectators' apart, which a player may hide on their board; quick
// phrases, sent as keys and said in each reader's own language; a mute of the other player,
// kept on the server for this seat; a report of a message to whoever runs the site.
//
// A message is shown as text (textContent, each in its own direction), never as markup. New
// messages come through the page's live updates (api.js watch: onChat), and what was said
// while the page was not connected is read again as each connection opens (readChat).

import { say } from "./announce.js";
import { ApiError, getChat, muteChat, refusal, reportChat, writeChat } from "./api.js";
import { signedIn } from "./csrf.js";
import { t } from "./i18n.js";
import { setSpectatorsChat, spectatorsChat } from "./prefs.js";
import { seatsHeld } from "./seats.js";

/** The quick phrases' keys, as the server knows them (server/chat/texts.py). */
const PHRASES = ["hello", "good-luck", "nice-roll", "well-played", "thanks", "sorry-must-go"];

const $ = (selector) => document.querySelector(selector);

const chat = {
  id: null, // the match whose chat this is
  online: false, // whether it has one: an online match between people
  seat: null, // this browser's seat in it, or null (a spectator)
  muted: false, // whether this seat has muted the other player (kept on the server)
  messages: new Map(), // by id
  reported: new Set(), // the ids of the messages this page has reported
};

/** Wire the chat's form, its quick phrases and its choices. */
export function setUpChat() {
  $("#chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send({ text: $("#chat-text").value });
  });
  const phrases = $("#chat-phrases");
  for (const key of PHRASES) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.phrase = key;
    button.addEventListener("click", () => send({ phrase: key }));
    phrases.append(button);
  }
  $("#chat-spectators").checked = spectatorsChat();
  $("#chat-spectators").addEventListener("change", (event) => {
    setSpectatorsChat(event.target.checked);
    renderLog(true);
  });
  $("#chat-mute").addEventListener("change", (event) => mute(event.target.checked));
  relabelChat();
}

/** Show the chat of `state`'s match, where it has one, and read what it has said. */
export function openChat(state) {
  if (chat.id !== state.id) {
    Object.assign(chat, { id: state.id, muted: false });
    chat.messages.clear();
    chat.reported.clear();
    $("#chat-log").replaceChildren();
    $("#chat-message").textContent = "";
  }
  chat.online = Boolean(state.online);
  const held = seatsHeld(state.id);
  chat.seat = held.length === 1 ? held[0] : null;
  renderChat();
  readChat();
}

/** Read what the chat has said since the newest message this page has (as a connection of
 * the live updates opens, so nothing said while it was closed is missed). */
export async function readChat() {
  const id = chat.id;
  if (!id || !chat.online) return;
  let listing;
  try {
    listing = await getChat(id, Math.max(0, ...chat.messages.keys()));
  } catch {
    return; // read again as the next connection opens
  }
  if (chat.id !== id) return;
  chat.muted = listing.muted;
  for (const message of listing.messages) chat.messages.set(message.id, message);
  renderChat();
}

/** A message the live updates pushed. */
export function chatPushed(message) {
  if (!chat.online || chat.messages.has(message.id)) return;
  chat.messages.set(message.id, message);
  renderLog(false);
}

/** Every text of the chat again, in the page's language (the phrases are each reader's). */
export function relabelChat() {
  for (const button of document.querySelectorAll("#chat-phrases [data-phrase]")) {
    button.textContent = t(`chat.phrase.${button.dataset.phrase}`);
  }
  renderLog(true);
}

/** The chat's panel: shown for an online match, its form for whoever may write (a player, a
 * signed-in spectator), the mute and the spectators' choice for a player. */
function renderChat() {
  $("#chat").hidden = !chat.online;
  if (!chat.online) return;
  const player = chat.seat !== null;
  const writes = player || signedIn();
  $("#chat-form").hidden = !writes;
  $("#chat-phrases").hidden = !writes;
  $("#chat-sign-in").hidden = writes;
  $("#chat-text").dataset.channel = player ? "players" : "spectators";
  $("#chat-player-options").hidden = !player;
  $("#chat-mute").checked = chat.muted;
  renderLog(false);
}

/** Whether this page shows `message`: a muted player's are hidden from the seat that muted
 * them, and the spectators' from a player who chose not to see them. */
function shown(message) {
  if (chat.seat === null) return true;
  if (chat.muted && message.seat === 1 - chat.seat) return false;
  return message.channel === "players" || spectatorsChat();
}

/** The messages shown, in the order they were written: new ones added after those shown
 * (the log says only them to a screen reader), or all drawn again (`again`, or where one
 * came out of order). */
function renderLog(again) {
  const log = $("#chat-log");
  const messages = [...chat.messages.values()].filter(shown).sort((a, b) => a.id - b.id);
  const drawn = [...log.children].map((line) => Number(line.dataset.id));
  const keeps = !again && drawn.every((id, index) => messages[index] && messages[index].id === id);
  if (!keeps) log.replaceChildren();
  for (const message of messages.slice(keeps ? drawn.length : 0)) log.append(line(message));
  $("#chat-empty").hidden = messages.length > 0;
  log.scrollTop = log.scrollHeight;
}

/** One message as a line of the log: its writer, what it says (a phrase in this page's
 * language), and for a player a button to report another's. */
function line(message) {
  const item = document.createElement("p");
  item.className = "chat-line";
  item.dataset.id = String(message.id);
  item.dataset.channel = message.channel;
  const name = document.createElement("bdi");
  name.className = "chat-name";
  name.textContent = message.seat !== null && message.seat === chat.seat ? t("name.you") : message.name;
  item.append(name);
  if (message.channel === "spectators") {
    const role = document.createElement("span");
    role.className = "chat-role";
    role.textContent = ` ${t("chat.watching")}`;
    item.append(role);
  }
  item.append(document.createTextNode(t("chat.separator")));
  const said = document.createElement("bdi");
  said.className = message.phrase ? "chat-text chat-said-phrase" : "chat-text";
  said.dir = "auto";
  said.textContent = message.phrase ? t(`chat.phrase.${message.phrase}`) : message.text;
  item.append(said);
  if (chat.seat !== null && message.seat !== chat.seat) item.append(" ", reportButton(message));
  return item;
}

function reportButton(message) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "chat-report";
  const reported = chat.reported.has(message.id);
  button.textContent = t(reported ? "chat.reportedMark" : "chat.report");
  button.setAttribute("aria-label", t(reported ? "chat.reportedLabel" : "chat.reportLabel", { name: message.name }));
  button.disabled = reported;
  button.addEventListener("click", () => report(message));
  return button;
}

/** Write `body` ({text} or {phrase}) in this page's channel. */
async function send(body) {
  const id = chat.id;
  if (!id) return;
  const message = chat.seat !== null
    ? { channel: "players", seat: chat.seat, ...body }
    : { channel: "spectators", ...body };
  $("#chat-message").textContent = "";
  try {
    const kept = await writeChat(id, message);
    if (chat.id !== id) return;
    chat.messages.set(kept.id, kept);
    if (body.text !== undefined) $("#chat-text").value = "";
    renderLog(false);
  } catch (error) {
    $("#chat-message").textContent = t(chatRefusal(error));
  }
}

/** The message key for a refused message. */
function chatRefusal(error) {
  if (error instanceof ApiError) {
    if (error.status === 429) return "chat.tooMany";
    if (error.status === 422) return "chat.invalid";
    if (error.status === 401) return "chat.signIn";
  }
  return refusal(error, "error.refused");
}

/** Mute the other player for this seat (`muted`), or hear them again: what they said while
 * muted is read again then. */
async function mute(muted) {
  const id = chat.id;
  if (!id || chat.seat === null) return;
  $("#chat-message").textContent = "";
  try {
    await muteChat(id, chat.seat, muted);
  } catch (error) {
    $("#chat-mute").checked = chat.muted;
    $("#chat-message").textContent = t(refusal(error, "error.refused"));
    return;
  }
  if (chat.id !== id) return;
  chat.muted = muted;
  if (!muted) {
    chat.messages.clear(); // the server left the muted player's out: all are read again
    await readChat();
  }
  renderLog(true);
}

/** Report `message` to whoever runs the site. */
async function report(message) {
  const id = chat.id;
  $("#chat-message").textContent = "";
  try {
    await reportChat(id, message.id, chat.seat);
  } catch (error) {
    $("#chat-message").textContent = t(refusal(error, "error.refused"));
    return;
  }
  chat.reported.add(message.id);
  const button = $(`#chat-log [data-id="${message.id}"] .chat-report`);
  if (button) button.replaceWith(reportButton(message));
  say(t("chat.reported"));
}
