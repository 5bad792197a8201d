/* api.js - the JSON API of `kemet serve` (docs/api.md), and the rulesets
 * and play levels it describes. In the offline folder the same calls are
 * answered in the browser (offline.js). */
import {offline, offlineRequest} from "./offline.js";
export {offline};
let rulesets = null;
let levels = null;

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
  if (offline) return offlineRequest(method, path, body, token);
  const headers = {};
  if (token) headers.Authorization = "Bearer " + token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const r = await fetch("/api/" + path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  const type = r.headers.get("Content-Type") || "";
  const data = type.startsWith("application/json") ? await r.json() : await r.text();
  if (!r.ok) throw new Error(data && data.error ? data.error : "HTTP " + r.status);
  return data;
}
/* Every ruleset (with its board for drawing, `art`) and the levels. */
export async function getRulesets() {
  if (!rulesets) ({rulesets, levels} = await api("GET", "rulesets"));
  return rulesets;
}
export function ruleset(id) { return rulesets.find(r => r.id === id); }
export function playLevels() { return levels; }
