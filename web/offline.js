/* offline.js - the page without a server: where the page was built into
 * an offline folder (docs/wasm.md), its API calls go to kemet's engine
 * built to WebAssembly, running in a worker (web/offline/worker.js), and
 * the games are kept in this browser's storage (web/store.js). Served by
 * `kemet serve`, nothing here is used. */
import {offline, gameRecords, keepGames, onGameElsewhere} from "./store.js";
export {offline};

let worker = null, started = null, calls = 0;
const pending = new Map(); /* call number -> {resolve, reject} */
const watchers = new Map(); /* game id -> Set of functions (version) */

function tell(id, version) {
  for (const fn of watchers.get(id) || []) fn(version);
}

function start() {
  if (started) return started;
  const url = URL.createObjectURL(new Blob([globalThis.KEMET_WORKER_SOURCE], {type: "text/javascript"}));
  worker = new Worker(url);
  started = gameRecords().then(records => new Promise((resolve, reject) => {
    worker.onerror = e => reject(new Error("the engine could not start: " + (e.message || "unknown error")));
    worker.onmessage = m => {
      const d = m.data;
      if (d.loaded !== undefined) {
        if (d.errors.length) console.warn("kemet: games not restored:", d.errors);
        resolve();
      } else if (d.call !== undefined) {
        const p = pending.get(d.call);
        pending.delete(d.call);
        /* answered once the changed games are stored */
        keepGames(d.saves).then(kept => {
          if (!kept) p.reject(new Error("the game could not be kept in this browser's storage (is it full?)"));
          else if (d.status >= 400) p.reject(Object.assign(new Error(d.data && d.data.error ? d.data.error : "error " + d.status), {status: d.status}));
          else p.resolve(d.data);
        });
      } else if (d.saves) keepGames(d.saves).then(kept => { if (!kept) console.warn("kemet: the computer's move could not be kept in this browser's storage"); });
      else if (d.change !== undefined) tell(d.change, d.version);
      else if (d.failed) console.warn("kemet:", d.failed, d.error);
    };
    worker.postMessage({load: records});
  }));
  /* another tab of this page changed a game: this tab's engine takes it up */
  onGameElsewhere(rec => worker.postMessage({reload: rec}));
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
