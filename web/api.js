/* api.js - the JSON API of `kemet serve` (docs/api.md), and the rulesets
 * and play levels it describes. In the offline folder the same calls are
 * answered in the browser (offline.js). */
import {offline, offlineRequest} from "./offline.js";
export {offline};
let rulesets = null;
let levels = null;

/* An error answer, or no answer: its words for a person, its status (0
 * when the server could not be reached). */
export class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; this.network = status === 0; }
}

let busy = 0; /* requests in flight: the page is marked data-busy meanwhile */
export async function api(method, path, body, token) {
  busy++;
  document.body.dataset.busy = "1";
  try {
    return await request(method, path, body, token);
  } finally {
    if (--busy === 0) delete document.body.dataset.busy;
  }
}
async function request(method, path, body, token) {
  if (offline) {
    try { return await offlineRequest(method, path, body, token); }
    catch (e) { throw new ApiError(e.message, e.status || 500); }
  }
  const headers = {};
  if (token) headers.Authorization = "Bearer " + token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let r;
  try {
    r = await fetch("/api/" + path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  } catch (e) {
    throw new ApiError("The server cannot be reached (is kemet serve still running?). Trying again…", 0);
  }
  const type = r.headers.get("Content-Type") || "";
  let data;
  try { data = type.startsWith("application/json") ? await r.json() : await r.text(); }
  catch (e) { throw new ApiError("The server's answer was cut off. Trying again…", 0); }
  if (!r.ok) throw new ApiError(data && data.error ? data.error : "The server answered " + r.status + ".", r.status);
  return data;
}
/* Every ruleset (with its board for drawing, `art`) and the levels. */
export async function getRulesets() {
  if (!rulesets) ({rulesets, levels} = await api("GET", "rulesets"));
  return rulesets;
}
export function ruleset(id) { return rulesets.find(r => r.id === id); }
export function playLevels() { return levels; }

/* What the server says of itself (GET /api/server, docs/api.md): host,
 * port, loopback (true when no other device can reach it), urls (the
 * addresses others may use, best first); null where it does not say.
 * Read once; serverInfo.known holds it. */
let info = null;
export function serverInfo() {
  if (offline) return Promise.resolve(null);
  if (!info) info = fetch("/api/server").then(r => r.ok ? r.json() : null).catch(() => null)
    .then(x => { serverInfo.known = x; return x; });
  return info;
}
serverInfo.known = null;
