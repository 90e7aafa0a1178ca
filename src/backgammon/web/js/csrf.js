// The CSRF token of this browser's sign-in: the server sets it in the bg_csrf cookie beside the
// session's (HttpOnly) cookie, and refuses a state-changing request that carries the session
// without it in the X-CSRF-Token header. A guest has neither cookie and sends nothing.

/** The header to add to a POST, PUT or DELETE: {"X-CSRF-Token": token}, or {} for a guest. */
export function csrfHeaders() {
  const found = document.cookie.split("; ").find((pair) => pair.startsWith("bg_csrf="));
  return found ? { "X-CSRF-Token": decodeURIComponent(found.slice("bg_csrf=".length)) } : {};
}

/** Whether this browser is signed in: the server sets bg_csrf with the session, and deletes
 * both at sign-out. */
export function signedIn() {
  return document.cookie.split("; ").some((pair) => pair.startsWith("bg_csrf="));
}
