/* util.js - making elements, and the games this browser remembers. */
import {getItem, setItem} from "./store.js";

export const app = document.getElementById("app");
const SVGNS = "http://www.w3.org/2000/svg";

export function h(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined)
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  return e;
}
export function s(tag, attrs, ...kids) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) e.setAttribute(k, v);
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined)
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  return e;
}
export function myGames() {
  try { return JSON.parse(getItem("kemet.games") || "[]"); } catch (e) { return []; }
}
export function remember(id, token, seat) {
  const list = myGames().filter(g => !(g.id === id && g.seat === seat));
  list.unshift({id, token, seat});
  setItem("kemet.games", JSON.stringify(list.slice(0, 200)));
}
/* The token this browser holds for game `id` (the seat last taken), or null:
 * tokens live here, never in the address, so that sharing one's address
 * never hands over one's seat. */
export function tokenFor(id) {
  const g = myGames().find(x => x.id === id);
  return g ? g.token : null;
}
/* The other seat's invitation, kept by the browser that made the game. */
export function keepInvite(id, token) { setItem("kemet.invite." + id, token); }
export function inviteFor(id) { return getItem("kemet.invite." + id); }
export function activate(el, fn) {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  el.addEventListener("click", fn);
  el.addEventListener("keydown", e => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); fn(e); }
  });
}


/* How the moves are shown: "normal" (each piece glides along its path),
 * "fast", or "off" (at once); the reader's choice, kept by the browser. */
export function motion() {
  const m = getItem("kemet.motion");
  return m === "fast" || m === "off" ? m : "normal";
}
export function setMotion(m) { setItem("kemet.motion", m); }

/* A page that went wrong: what happened, and the way back. */
export function errorPage(text) {
  app.replaceChildren(h("div", {class: "panel"}, h("p", {class: "msg bad", id: "error"}, text),
    h("p", {}, h("a", {href: "#/", class: "button", id: "back"}, "Back to the start page"))));
}
