// The message catalogue: every text a person reads comes from messages/<lang>.json.
//
// A message may hold {name} placeholders (a number given for one is written as the language
// writes numbers); a counted message is a set of keys "<key>.one", "<key>.other" (and whatever
// plural categories the language has: Maltese "two", "few", "many"), chosen by
// Intl.PluralRules. A message a catalogue lacks is taken from the English one.

/** The languages there are catalogues for, English first (the fallback). */
export const LANGUAGES = ["en", "vi", "mt", "fa", "km"];

let english = {};
let catalogue = {};
let current = "en";
let rules = new Intl.PluralRules("en");
let numbers = new Intl.NumberFormat("en");
let loading = 0; // the latest load asked for: an earlier one that ends later is dropped

async function fetchCatalogue(lang) {
  const response = await fetch(`/messages/${lang}.json`);
  if (!response.ok) throw new Error(`no catalogue for ${lang}: ${response.status}`);
  return response.json();
}

/**
 * The first of the browser's languages (navigator.languages: "fa-IR", "vi", ...) there is a
 * catalogue for, by its primary subtag; English when none is.
 */
export function browserLanguage(preferred = navigator.languages || [navigator.language]) {
  for (const tag of preferred || []) {
    const primary = String(tag).toLowerCase().split(/[-_]/)[0];
    if (LANGUAGES.includes(primary)) return primary;
  }
  return "en";
}

/** Load the catalogue of `lang` (English where there is none) and set <html lang dir>. */
export async function loadMessages(lang = "en") {
  const ticket = ++loading;
  if (!Object.keys(english).length) english = await fetchCatalogue("en");
  let messages = english;
  let code = LANGUAGES.includes(lang) ? lang : "en";
  if (code !== "en") {
    try {
      messages = await fetchCatalogue(code);
    } catch (error) {
      console.warn(String(error));
      code = "en";
    }
  }
  if (ticket !== loading) return;
  catalogue = messages;
  current = catalogue["meta.lang"] || code;
  rules = new Intl.PluralRules(current);
  numbers = new Intl.NumberFormat(current);
  document.documentElement.lang = current;
  document.documentElement.dir = catalogue["meta.dir"] || "ltr";
}

/** The language of the catalogue loaded ("en", "fa", ...). */
export function language() {
  return current;
}

/** A number as the language writes it (Persian digits in Persian, say). */
export function formatNumber(value) {
  return numbers.format(value);
}

/** Text of another direction inside a message (a play's notation, an ID), kept in its own
 * order: isolated left to right where the page reads right to left. */
export function isolate(text) {
  return document.documentElement.dir === "rtl" ? `\u2066${text}\u2069` : String(text);
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === "number" ? formatNumber(value) : String(value);
  });
}

/** The message `key` with its {placeholders} filled in; the English one where the catalogue
 * lacks it; the key itself if neither has it. */
export function t(key, params = {}) {
  const text = key in catalogue ? catalogue[key] : english[key];
  if (text === undefined) {
    console.warn(`missing message: ${key}`);
    return key;
  }
  return fill(text, params);
}

/** Whether the catalogue (or the English one) has the message `key`, or its counted forms. */
export function has(key) {
  return [catalogue, english].some((messages) => key in messages || `${key}.other` in messages);
}

/** The counted message `key` for `count`, with `count` among its placeholders: the form of
 * the language's plural category for it, else its "other"; the English forms where the
 * catalogue has none. */
export function plural(key, count, params = {}) {
  const form = `${key}.${rules.select(count)}`;
  if (form in catalogue) return t(form, { ...params, count });
  if (`${key}.other` in catalogue) return t(`${key}.other`, { ...params, count });
  const englishForm = `${key}.${new Intl.PluralRules("en").select(count)}`;
  return t(englishForm in english ? englishForm : `${key}.other`, { ...params, count });
}

/** Fill the texts of `root`: data-msg (text), data-msg-label (aria-label), data-msg-title. */
export function applyMessages(root = document) {
  for (const node of root.querySelectorAll("[data-msg]")) node.textContent = t(node.dataset.msg);
  for (const node of root.querySelectorAll("[data-msg-label]")) {
    node.setAttribute("aria-label", t(node.dataset.msgLabel));
  }
  for (const node of root.querySelectorAll("[data-msg-title]")) node.title = t(node.dataset.msgTitle);
}
