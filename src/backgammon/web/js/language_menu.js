// The language menu of every page: an option for each language of the catalogues, each named
// in its own (its lang, and dir for a right-to-left one); the one in use chosen; a change
// kept in this browser, its catalogue loaded and the page's texts said again.

import { LANGUAGES, applyMessages, language, loadMessages } from "./i18n.js";
import { setLanguage } from "./prefs.js";

const RIGHT_TO_LEFT = new Set(["fa"]);

/** Fill `select` with the languages and follow its changes: `relabel()` once a chosen
 * language's catalogue is loaded. */
export function setUpLanguageMenu(select, relabel) {
  select.replaceChildren(...LANGUAGES.map((lang) => {
    const option = document.createElement("option");
    option.value = lang;
    option.lang = lang;
    if (RIGHT_TO_LEFT.has(lang)) option.dir = "rtl";
    option.dataset.msg = `language.${lang}`;
    return option;
  }));
  applyMessages(select);
  select.value = language();
  select.addEventListener("change", async () => {
    setLanguage(select.value);
    await loadMessages(select.value);
    relabel();
  });
}
