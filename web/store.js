/* store.js - what this browser keeps for the page: the seats' tokens and
 * the invitations (kemet.games, kemet.invite.ID), the reader's choices
 * (kemet.numbers, kemet.motion) and, offline, the games themselves.
 *
 * Served by `kemet serve`, it is localStorage. Offline (docs/wasm.md) it
 * is IndexedDB, database "kemet" with the stores "keys" (the same keys
 * and values) and "games" (one record a game, by its id): Chromium's
 * localStorage for a page opened from file:// now and then comes up empty
 * on a reload (a fresh area for that one load; the kept one is back on
 * the next), which would lose the game played meanwhile and the seat's
 * token; its IndexedDB keeps them. The keys are read into memory when the
 * page opens (openStore), so reading them stays synchronous; a write goes
 * to memory and to the database, and reaches the page's other tabs. What
 * an earlier version kept in localStorage is taken over. Where IndexedDB
 * cannot be opened, localStorage is used as served. */
export const offline = typeof globalThis.KEMET_WORKER_SOURCE === "string";

const GAME = "kemet.offline."; /* localStorage's key of a game's record */
const mem = new Map();
let db = null, opened = null, channel = null;
const heard = new Set(); /* functions (record) told of another tab's game change */

function result(r) {
  return new Promise((ok, no) => { r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
}
function finished(tx) {
  return new Promise((ok, no) => {
    tx.oncomplete = () => ok();
    tx.onerror = tx.onabort = () => no(tx.error || new Error("the browser's storage refused"));
  });
}

function localKeys() {
  const out = [];
  try { for (let i = 0; i < localStorage.length; i++) out.push(localStorage.key(i)); } catch (e) { /* no storage */ }
  return out;
}

/* Opens the offline store and reads its keys; at once when served. */
export function openStore() {
  if (!offline) return Promise.resolve();
  if (opened) return opened;
  opened = (async () => {
    try {
      const r = indexedDB.open("kemet", 1);
      r.onupgradeneeded = () => { r.result.createObjectStore("keys"); r.result.createObjectStore("games"); };
      db = await result(r);
      const st = db.transaction("keys", "readonly").objectStore("keys");
      const [ks, vs] = await Promise.all([result(st.getAllKeys()), result(st.getAll())]);
      ks.forEach((k, i) => mem.set(k, vs[i]));
      for (const k of localKeys()) {
        if (k.startsWith("kemet.") && !k.startsWith(GAME) && !mem.has(k)) setItem(k, localStorage.getItem(k));
      }
    } catch (e) {
      db = null;
      console.warn("kemet: the browser's IndexedDB could not be opened; games are kept in localStorage", e);
    }
    if (typeof BroadcastChannel === "function") {
      channel = new BroadcastChannel("kemet");
      channel.onmessage = m => {
        const d = m.data || {};
        if (typeof d.key === "string") mem.set(d.key, d.value);
        else if (d.record) for (const fn of heard) fn(d.record);
      };
    }
  })();
  return opened;
}

export function getItem(k) {
  if (db) return mem.has(k) ? mem.get(k) : null;
  try { return localStorage.getItem(k); } catch (e) { return null; }
}

export function setItem(k, v) {
  v = String(v);
  if (!db) { localStorage.setItem(k, v); return; }
  mem.set(k, v);
  const tx = db.transaction("keys", "readwrite");
  tx.objectStore("keys").put(v, k);
  finished(tx).catch(e => console.warn("kemet: not kept:", k, e));
  if (channel) channel.postMessage({key: k, value: v});
}

/* Every game's record kept offline (a record that is not valid JSON left
 * alone); those an earlier version kept in localStorage are taken over. */
export async function gameRecords() {
  await openStore();
  const records = new Map();
  if (db) {
    const all = await result(db.transaction("games", "readonly").objectStore("games").getAll());
    for (const rec of all) if (rec && typeof rec.id === "string") records.set(rec.id, rec);
  }
  const old = [];
  for (const k of localKeys()) {
    if (!k.startsWith(GAME) || records.has(k.slice(GAME.length))) continue;
    try {
      const rec = JSON.parse(localStorage.getItem(k));
      records.set(k.slice(GAME.length), rec);
      old.push(rec);
    } catch (e) { /* not a record: left alone */ }
  }
  if (db && old.length) await keepGames(old, false);
  return [...records.values()];
}

/* Keeps the records the engine sent (resolves once they are stored);
 * false if the storage refused. The page's other tabs are told. */
export async function keepGames(saves, tell = true) {
  if (!saves || !saves.length) return true;
  try {
    if (db) {
      const tx = db.transaction("games", "readwrite"), st = tx.objectStore("games");
      for (const rec of saves) st.put(rec, rec.id);
      await finished(tx);
    } else {
      for (const rec of saves) localStorage.setItem(GAME + rec.id, JSON.stringify(rec));
    }
  } catch (e) {
    return false;
  }
  if (tell && channel) for (const rec of saves) channel.postMessage({record: rec});
  return true;
}

/* Calls fn(record) whenever another tab of the page changes a game. */
export function onGameElsewhere(fn) { heard.add(fn); }
