// The tournaments' pages: the form that creates one, a tournament's buttons (join, leave,
// cancel, play one's match), and its live part, read again from the server every few seconds
// and put in place when the tournament has changed. The words come from the server, in the
// page's language; a refusal's sentence rides on the form or the page as a data attribute.

import { csrfHeaders } from "./csrf.js";
import { LANGUAGES } from "./i18n.js";
import { language } from "./prefs.js";
import { keepSeat } from "./seats.js";

/** How often the live part is read again, in milliseconds. */
const EVERY = 3000;

/** The sentence of `holder`'s data attributes for a refused request's status. */
function refusal(holder, status) {
  if (status === 401) return holder.dataset.signin;
  if (status === 409 && holder.dataset.conflict) return holder.dataset.conflict;
  if (status === 422 && holder.dataset.invalid) return holder.dataset.invalid;
  if (status === 429 && holder.dataset.busy) return holder.dataset.busy;
  return holder.dataset.failed;
}

async function post(path, body) {
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...csrfHeaders() },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, answer: await response.json().catch(() => null) };
  } catch {
    return { status: 0, answer: null }; // no answer: the network
  }
}

async function create(event) {
  event.preventDefault();
  const form = event.target;
  const said = form.querySelector(".refusal");
  said.textContent = "";
  // By name: a form's own properties (its elements' `length`) hide fields of their names.
  const field = (name) => form.elements.namedItem(name);
  const body = {
    name: field("name").value,
    kind: field("kind").value,
    game: field("game").value,
    length: Number(field("length").value),
    time_control: field("time_control").value,
    rated: field("rated").checked,
    max_players: Number(field("max_players").value),
  };
  if (field("start").value === "time") {
    const when = new Date(field("starts_at").value);
    if (Number.isNaN(when.getTime())) {
      said.textContent = form.dataset.invalid;
      return;
    }
    body.starts_at = when.toISOString();
  }
  const { status, answer } = await post("/api/tournaments", body);
  if (status === 201) {
    location.assign(`/tournaments/${encodeURIComponent(answer.id)}?lang=${document.documentElement.lang}`);
  } else {
    said.textContent = refusal(form, status);
  }
}

const live = document.querySelector("#tournament");
const said = document.querySelector("#tournament-said");

/** Read the live part again; put it in place if the tournament has changed, the focused
 * button kept focused where it is still there. */
async function refresh() {
  let text;
  try {
    const response = await fetch(`${location.pathname}?part=live&lang=${document.documentElement.lang}`);
    if (!response.ok) return;
    text = await response.text();
  } catch {
    return; // the network: the next read tries again
  }
  const part = document.createElement("div");
  part.innerHTML = text;
  const version = part.querySelector("[data-version]")?.dataset.version;
  if (version === undefined || version === live.dataset.version) return;
  const focused = document.activeElement && live.contains(document.activeElement)
    ? document.activeElement.id : null;
  live.replaceChildren(...part.childNodes);
  live.dataset.version = version;
  document.querySelector("#tournament-update").textContent =
    live.querySelector(".tournament-status")?.textContent || "";
  if (focused) document.getElementById(focused)?.focus();
}

async function act(button) {
  said.textContent = "";
  const { status } = await post(`/api/tournaments/${encodeURIComponent(live.dataset.id)}/${button.dataset.act}`);
  if (status !== 200) said.textContent = refusal(live, status);
  await refresh();
}

async function play(button) {
  said.textContent = "";
  const id = live.dataset.id;
  const match = button.dataset.match;
  try {
    const response = await fetch(
      `/api/tournaments/${encodeURIComponent(id)}/matches/${encodeURIComponent(match)}/seat`);
    if (!response.ok) {
      said.textContent = refusal(live, response.status);
      return;
    }
    const seat = await response.json();
    keepSeat(seat.id, seat.token, seat.seats);
    location.assign(`/?match=${encodeURIComponent(seat.id)}`);
  } catch {
    said.textContent = live.dataset.failed;
  }
}

// The language chosen in the game's menu, when the address does not name one.
const chosen = language(LANGUAGES);
const params = new URLSearchParams(location.search);
if (chosen && !params.has("lang") && chosen !== document.documentElement.lang) {
  params.set("lang", chosen);
  location.replace(`${location.pathname}?${params}`);
}

document.querySelector("#create-tournament")?.addEventListener("submit", create);
if (live) {
  live.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    if (button.dataset.act) act(button);
    else if (button.dataset.match) play(button);
  });
  setInterval(refresh, EVERY);
}
