// ws.js: a small client of the graphql-transport-ws protocol: one websocket to this
// server's /graphql carries many subscriptions. It sends connection_init with the token
// (or none: a spectator), starts each subscription once acknowledged, answers pings, and
// after a lost connection opens a new one and starts every subscription again (each asks
// its variables anew, so a follower can resume after the last version it saw).

const url = () => (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/graphql";

export class Socket {
  // onStatus(text) hears "connecting", "open" and "lost"; token may be null.
  constructor(token, onStatus = () => {}) {
    this.token = token;
    this.onStatus = onStatus;
    this.subs = new Map();
    this.nextId = 1;
    this.retries = 0;
    this.closed = false;
    this.open();
  }

  open() {
    this.acked = false;
    this.onStatus("connecting");
    const ws = new WebSocket(url(), "graphql-transport-ws");
    this.ws = ws;
    ws.onopen = () => this.send({ type: "connection_init", payload: this.token ? { Authorization: "Bearer " + this.token } : {} });
    ws.onmessage = (ev) => this.receive(JSON.parse(ev.data));
    ws.onclose = (ev) => this.lost(ev);
  }

  send(msg) {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  receive(m) {
    const sub = this.subs.get(m.id);
    switch (m.type) {
      case "connection_ack":
        this.acked = true;
        this.retries = 0;
        this.onStatus("open");
        for (const [id, s] of this.subs) this.start(id, s);
        break;
      case "ping":
        this.send({ type: "pong" });
        break;
      case "next":
        if (!sub) break;
        if (m.payload.errors?.length) sub.sink.error?.(m.payload.errors[0]);
        if (m.payload.data) sub.sink.next(m.payload.data);
        break;
      case "error":
        if (!sub) break;
        this.subs.delete(m.id);
        sub.sink.error?.(m.payload[0] || { message: "the subscription was refused" });
        break;
      case "complete":
        if (!sub) break;
        this.subs.delete(m.id);
        sub.sink.complete?.();
        break;
    }
  }

  // subscribe starts one subscription: sink.next(data) for each result, sink.error(err)
  // and sink.complete() at its end. variables may be a function, called at each start.
  // It returns the function that stops it.
  subscribe(query, variables, sink) {
    const id = String(this.nextId++);
    const s = { query, variables, sink };
    this.subs.set(id, s);
    if (this.acked) this.start(id, s);
    return () => {
      if (this.subs.delete(id) && this.acked) this.send({ id, type: "complete" });
    };
  }

  start(id, s) {
    const variables = typeof s.variables === "function" ? s.variables() : s.variables;
    this.send({ id, type: "subscribe", payload: { query: s.query, variables } });
  }

  lost(ev) {
    this.acked = false;
    if (this.closed) return;
    // 4400-4499 are the server refusing what this client sent: trying again sends it again.
    if (ev.code >= 4400 && ev.code < 4500 && ev.code !== 4429) {
      this.onStatus(`closed by the server: ${ev.reason || ev.code}`);
      for (const s of this.subs.values()) s.sink.error?.({ message: ev.reason || `closed with ${ev.code}` });
      this.subs.clear();
      return;
    }
    this.onStatus("lost");
    const wait = Math.min(10000, 500 * 2 ** this.retries++);
    this.timer = setTimeout(() => this.open(), wait);
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.ws.close(1000, "page left");
  }
}
