// api.js: queries and mutations over HTTP, to this server's /graphql, as the player of
// the session (its token) or as nobody.
import { session } from "./session.js";

// ApiError is a refused request: the server's reason and its extensions.code.
export class ApiError extends Error {
  constructor(message, code, extensions = {}) {
    super(message);
    this.code = code;
    this.extensions = extensions;
  }
}

// gql runs one operation and returns its data, or throws an ApiError. With anonymous,
// no token is sent: the request sees what any spectator sees.
export async function gql(query, variables = {}, { anonymous = false } = {}) {
  const headers = { "Content-Type": "application/json" };
  const token = anonymous ? null : session.token();
  if (token) headers.Authorization = "Bearer " + token;
  let res;
  try {
    res = await fetch("/graphql", { method: "POST", headers, body: JSON.stringify({ query, variables }) });
  } catch (e) {
    throw new ApiError("the server cannot be reached: " + e.message, "NETWORK");
  }
  let body;
  try {
    body = await res.json();
  } catch {
    throw new ApiError(`the server answered ${res.status} without JSON`, "HTTP_" + res.status);
  }
  const err = body.errors?.[0];
  if (err) {
    const code = err.extensions?.code;
    // A token the server does not know (its store was reset): sign up again.
    if (code === "UNAUTHENTICATED" && token) session.clear();
    throw new ApiError(err.message, code, err.extensions);
  }
  return body.data;
}

// commandId is a fresh idempotency key for one action, so that a retried request never
// plays twice.
let counter = 0;
export const commandId = () => `web-${Date.now().toString(36)}-${(counter++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
