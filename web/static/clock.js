// clock.js: a match's game clock. The API gives each seat's time as of the last event and
// the seat whose time runs since when; the running seat's time counts down here between
// events, from the server's figures (so a late page shows the same time as a fresh one).

export const fmt = (ms) => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

export class Clocks {
  constructor() {
    this.clock = null;
    this.cells = new Map(); // seat -> element showing its time
    this.timer = setInterval(() => this.tick(), 200);
  }

  // bind tells which element shows each seat's time.
  bind(seat, el) {
    this.cells.set(seat, el);
  }

  update(clock) {
    this.clock = clock;
    this.tick();
  }

  left(seat) {
    const c = this.clock;
    const s = c?.seats.find((x) => x.seat === seat);
    if (!s) return null;
    return c.running === seat && c.since ? s.remainingMs - (Date.now() - Date.parse(c.since)) : s.remainingMs;
  }

  tick() {
    for (const [seat, el] of this.cells) {
      const ms = this.left(seat);
      el.textContent = ms == null ? "" : fmt(ms);
      el.classList.toggle("running", this.clock?.running === seat);
      el.classList.toggle("low", ms != null && ms < 20000);
    }
  }

  stop() {
    clearInterval(this.timer);
  }
}
