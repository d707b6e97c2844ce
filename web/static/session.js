// session.js: the player this browser plays as, registered with registerPlayer and kept
// in localStorage (its token is the player's key: it is sent to this server alone).
const KEY = "arbiter.player";

let me = null;
try {
  me = JSON.parse(localStorage.getItem(KEY) || "null");
} catch {
  me = null;
}
const listeners = new Set();

export const session = {
  // player is {id, name, token}, or null before signing up.
  player: () => me,
  token: () => me?.token ?? null,
  save(p) {
    me = p;
    localStorage.setItem(KEY, JSON.stringify(p));
    listeners.forEach((f) => f());
  },
  clear() {
    me = null;
    localStorage.removeItem(KEY);
    listeners.forEach((f) => f());
  },
  onChange: (f) => listeners.add(f),
};

// randomKey is a registration's commandId: 32 hex characters from the browser's random
// source, so that a retried sign-up returns the same player instead of a second one.
export function randomKey() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}
