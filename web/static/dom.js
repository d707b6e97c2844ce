// dom.js: h() builds elements, so that the views read as the markup they make. No HTML
// is ever parsed from strings: text from the server is always text.

// h("button", {class: "x", onclick: f, "data-square": "e4"}, "text", child...) makes an
// element. Attributes named on... are listeners; false, null and undefined are left out.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v == null) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "value") el.value = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
}

// fill replaces an element's children.
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// shortId shows the start of a match ID, enough to tell matches apart.
export const shortId = (id) => id.slice(0, 6);

// errorText is what a failed request shows: its reason, and its code when there is one.
export const errorText = (e) => (e.code ? `${e.message} (${e.code})` : e.message);
