// The account page: sends the sign-in and sign-up forms to the API, the page's privacy, and
// signs out. The page's words come from the server, in its language; a refusal's sentence
// rides on its form.

import { csrfHeaders } from "./csrf.js";
import { LANGUAGES } from "./i18n.js";
import { language } from "./prefs.js";

const ENDPOINTS = { "sign-in": "/api/session", "sign-up": "/api/accounts" };

/** The form's sentence for a refused request's status. */
function refusal(form, status) {
  if (status === 401) return form.dataset.wrong;
  if (status === 409) return form.dataset.taken;
  if (status === 422) return form.dataset.invalid;
  if (status === 429) return form.dataset.busy;
  return form.dataset.failed;
}

async function submit(event) {
  event.preventDefault();
  const form = event.target;
  const said = form.querySelector(".refusal");
  said.textContent = "";
  const body = { name: form.elements.name.value, password: form.elements.password.value };
  let status = 0;
  try {
    const response = await fetch(ENDPOINTS[form.id], {
      method: "POST",
      headers: { "Content-Type": "application/json", ...csrfHeaders() },
      body: JSON.stringify(body),
    });
    status = response.status;
  } catch {
    status = 0; // no answer: the network
  }
  if (status >= 200 && status < 300) {
    location.reload();
  } else {
    said.textContent = refusal(form, status);
  }
}

/** Hide the player's page, or show it again, and say whether it was saved. */
async function savePrivacy(event) {
  event.preventDefault();
  const form = event.target;
  const said = form.querySelector(".status");
  said.textContent = "";
  let saved = false;
  try {
    const response = await fetch("/api/account/privacy", {
      method: "PUT",
      headers: { "Content-Type": "application/json", ...csrfHeaders() },
      body: JSON.stringify({ hidden: form.elements.hidden.checked }),
    });
    saved = response.ok;
  } catch {
    saved = false; // no answer: the network
  }
  said.textContent = saved ? form.dataset.saved : form.dataset.failed;
}

async function signOut() {
  await fetch("/api/session", { method: "DELETE", headers: csrfHeaders() }).catch(() => null);
  location.reload();
}

// The language chosen in the game's menu, when the address does not name one.
const chosen = language(LANGUAGES);
const params = new URLSearchParams(location.search);
if (chosen && !params.has("lang") && chosen !== document.documentElement.lang) {
  params.set("lang", chosen);
  location.replace(`${location.pathname}?${params}`);
}

for (const form of document.querySelectorAll("form.account-form")) {
  form.addEventListener("submit", submit);
}
document.querySelector("#privacy")?.addEventListener("submit", savePrivacy);
document.querySelector("#sign-out")?.addEventListener("click", signOut);
