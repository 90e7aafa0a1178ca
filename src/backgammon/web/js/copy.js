// Copying a field's text (an invite link, a position's IDs) with feedback: the button says
// "Copied" for a moment, or, where the browser allows no copying (the clipboard API exists
// only in secure contexts: https or localhost), the text is selected and the button says to
// press the keys.

import { t } from "./i18n.js";

/** Copy the value of `field` (an input) and say on `button` how it went. */
export async function copyField(field, button) {
  let copied = false;
  try {
    await navigator.clipboard.writeText(field.value);
    copied = true;
  } catch {
    field.select();
    try {
      copied = document.execCommand("copy");
    } catch {
      copied = false;
    }
  }
  const label = button.textContent;
  button.textContent = t(copied ? "copy.done" : "copy.select");
  setTimeout(() => {
    button.textContent = label;
  }, 2500);
}
