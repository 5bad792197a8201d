/* offline.js - the page without a server: where the page was built into
 * an offline folder (docs/wasm.md), its API calls go to kemet's engine
 * built to WebAssembly, running in a worker (web/offline/worker.js), and
 * the games are kept in this browser's storage (localStorage, one key per
 * game: "kemet.offline.ID"). Served by `kemet serve`, nothing here is
 * used. */
export const offline = typeof globalThis.KEMET_WORKER_SOURCE === "string";

const KEY = "kemet.offline.";
let worker = null, started = null, calls = 0;
const pending = new Map(); /* call number -> {resolve, reject} */
const watchers = new Map(); /* game id -> Set of functions (version) */

/* Keeps the records the worker sent; false if the storage refused. */
function keep(saves) {
  try {
    for (const rec of saves || []) localStorage.setItem(KEY + rec.id, JSON.stringify(rec));
    return true;
  } catch (e) {
    return false;
  }
}

function tell(id, version) {
  for (const fn of watchers.get(id) || []) fn(version);
}

function start() {
  if (started) return started;
  const url = URL.createObjectURL(new Blob([globalThis.KEMET_WORKER_SOURCE], {type: "text/javascript"}));
  worker = new Worker(url);
  const records = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (!k.startsWith(KEY)) continue;
    try { records.push(JSON.parse(localStorage.getItem(k))); } catch (e) { /* not a record: left alone */ }
  }
  started = new Promise((resolve, reject) => {
    worker.onerror = e => reject(new Error("the engine could not start: " + (e.message || "unknown error")));
    worker.onmessage = m => {
      const d = m.data;
      if (d.loaded !== undefined) {
        if (d.errors.length) console.warn("kemet: games not restored:", d.errors);
        resolve();
      } else if (d.call !== undefined) {
        const p = pending.get(d.call);
        pending.delete(d.call);
        if (!keep(d.saves)) p.reject(new Error("the game could not be kept in this browser's storage (is it full?)"));
        else if (d.status >= 400) p.reject(Object.assign(new Error(d.data && d.data.error ? d.data.error : "error " + d.status), {status: d.status}));
        else p.resolve(d.data);
      } else if (d.saves) keep(d.saves);
      else if (d.change !== undefined) tell(d.change, d.version);
      else if (d.failed) console.warn("kemet:", d.failed, d.error);
    };
    worker.postMessage({load: records});
  });
  /* another tab of this page changed a game: this tab's engine takes it up */
  addEventListener("storage", e => {
    if (!e.key || !e.key.startsWith(KEY) || !e.newValue) return;
    try { worker.postMessage({reload: JSON.parse(e.newValue)}); } catch (err) { /* not a record */ }
  });
  return started;
}

/* An API call (docs/api.md) answered by the engine. */
export async function offlineRequest(method, path, body, token) {
  await start();
  return new Promise((resolve, reject) => {
    const n = ++calls;
    pending.set(n, {resolve, reject});
    worker.postMessage({call: n, method, path, body, token});
  });
}

/* Calls fn(version) whenever game `id` changes; returns the function that
 * stops it. */
export function offlineWatch(id, fn) {
  if (!watchers.has(id)) watchers.set(id, new Set());
  watchers.get(id).add(fn);
  return () => watchers.get(id).delete(fn);
}
