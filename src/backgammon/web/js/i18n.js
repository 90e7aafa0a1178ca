// The message catalogue: every text a person reads comes from messages/<lang>.json.
//
// A message may hold {name} placeholders; a counted message is a set of keys "<key>.one",
// "<key>.other" (and whatever plural categories the language has), chosen by Intl.PluralRules.

let catalogue = {};
let rules = new Intl.PluralRules("en");

export async function loadMessages(lang = "en") {
  const response = await fetch(`/messages/${lang}.json`);
  catalogue = await response.json();
  rules = new Intl.PluralRules(catalogue["meta.lang"] || lang);
  document.documentElement.lang = catalogue["meta.lang"] || lang;
  document.documentElement.dir = catalogue["meta.dir"] || "ltr";
}

/** The message `key` with its {placeholders} filled in; the key itself if it is missing. */
export function t(key, params = {}) {
  const text = catalogue[key];
  if (text === undefined) {
    console.warn(`missing message: ${key}`);
    return key;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Whether the catalogue has the message `key`. */
export function has(key) {
  return key in catalogue;
}

/** The counted message `key` for `count`, with `count` among its placeholders. */
export function plural(key, count, params = {}) {
  const form = `${key}.${rules.select(count)}`;
  return t(form in catalogue ? form : `${key}.other`, { ...params, count });
}

/** Fill the texts of `root`: data-msg (text), data-msg-label (aria-label), data-msg-title. */
export function applyMessages(root = document) {
  for (const node of root.querySelectorAll("[data-msg]")) node.textContent = t(node.dataset.msg);
  for (const node of root.querySelectorAll("[data-msg-label]")) {
    node.setAttribute("aria-label", t(node.dataset.msgLabel));
  }
  for (const node of root.querySelectorAll("[data-msg-title]")) node.title = t(node.dataset.msgTitle);
}
