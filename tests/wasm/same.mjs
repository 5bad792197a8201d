// same.mjs - the WebAssembly engine against the native program: seeded
// games between agents must give byte-for-byte the records `kemet play`
// writes, for every ruleset; then the search speed of both.
//
//   KEMET_BIN=build/release/kemet node tests/wasm/same.mjs build/wasm/kemet.js
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const require = createRequire(import.meta.url);
const jsPath = resolve(process.argv[2] || "build/wasm/kemet.js");
const bin = process.env.KEMET_BIN || "build/release/kemet";
const createKemet = require(jsPath);
// the module's bytes handed over directly (this emscripten would fetch()
// a file path, which Node.js refuses)
const K = await createKemet({
  wasmBinary: readFileSync(jsPath.replace(/\.js$/, ".wasm")),
});
const play = K.cwrap("kw_play", "number",
                     ["string", "string", "string", "string", "number",
                      "number"]);
const search = K.cwrap("kw_search", "number",
                       ["string", "string", "string", "number"]);
const take = (p) => { const s = K.UTF8ToString(p); K._kw_free(p); return s; };

const rulesets = execFileSync(bin, ["rules"], { encoding: "utf8" })
  .split("\n").map((l) => l.split(/\s+/)[0]).filter(Boolean);
const pairs = [["random", "greedy"], ["greedy", "expectimax:500"],
               ["best:300", "random"], ["greedy~0.25", "greedy~0.6"]];
const dir = mkdtempSync(join(tmpdir(), "kemet-wasm-"));
let games = 0, failed = 0, endless = 0;
try {
  for (const rs of rulesets) {
    for (const [i, [p1, p2]] of pairs.entries()) {
      const seed = String(1000 + 7 * i + rs.length);
      const file = join(dir, `${rs}-${i}.rec`);
      // A game the rules never end (ruling G5: no seed limits a game's
      // length) cannot be compared: the WebAssembly engine plays it to a
      // ply cap first, and an unended game is reported, not played
      // natively; the native program is told no turn cap (--max-turns 0)
      // so that every game compared is played to its end on both sides.
      const capped = take(play(rs, seed, p1, p2, 200000, 1));
      if (!/\nresult [0-2]\n?$/.test(capped)) {
        console.log(`# ${rs} ${p1} vs ${p2} seed ${seed}: no end after ` +
                    "200000 plies (ruling G5); not compared");
        endless++;
        continue;
      }
      // the race databases (made in a second), no endgame tables: the
      // native program's tables depend on what its cache folder holds
      execFileSync(bin, ["play", rs, "--p1", p1, "--p2", p2, "--seed", seed,
                         "--record", file, "--tables", "race", "--max-turns", "0"],
                   { stdio: "ignore" });
      const native = readFileSync(file, "utf8");
      const wasm = take(play(rs, seed, p1, p2, 1 << 30, 1));
      games++;
      if (wasm !== native) {
        failed++;
        const a = native.split("\n"), b = wasm.split("\n");
        let k = 0;
        while (k < a.length && a[k] === b[k]) k++;
        console.log(`not ok - ${rs} ${p1} vs ${p2} seed ${seed}: line ${k + 1}` +
                    ` native '${a[k]}' wasm '${b[k]}'`);
      }
    }
  }
  console.log(`${failed ? "not ok" : "ok"} - ${games - failed}/${games} seeded ` +
              "games give the native program's records byte for byte" +
              (endless ? ` (${endless} without end, not compared)` : ""));
  // bad input gets an error, not a crash
  for (const [rs, seed, p1] of [["nosuch", "1", "random"],
                                ["senet-kendall", "x", "random"],
                                ["senet-kendall", "1", "wizard"],
                                ["senet-kendall", "1", "\u00ff".repeat(5000)]]) {
    const r = take(play(rs, seed, p1, "random", 10, 0));
    if (!r.startsWith("error ")) {
      failed++;
      console.log(`not ok - bad input accepted: ${rs} ${seed} ${p1.slice(0, 20)}`);
    }
  }
  // speed: the same searches, here and natively (bench's positions)
  const pos = "senet-kendall to=1 p1=1,3,5,7,9,11,13 p2=2,4,6,8,10,12,14";
  const w = take(search(pos, "3", "expectimax:200k", 5)).split(" ");
  const wasmRate = Number(w[0]) / Number(w[1]);
  const t0 = process.hrtime.bigint();
  const out = execFileSync(bin, ["hint", pos, "3", "--agent", "expectimax:200k"],
                           { encoding: "utf8" });
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const nodes = Number((out.match(/searched (\d+) positions/) || [0, 0])[1]);
  const size = statSync(jsPath.replace(/\.js$/, ".wasm")).size;
  console.log(`# module: kemet.wasm ${(size / 1024).toFixed(0)} KiB, ` +
              `kemet.js ${(statSync(jsPath).size / 1024).toFixed(0)} KiB`);
  console.log(`# expectimax on Senet's opening, throw 3: WebAssembly ` +
              `${(wasmRate / 1e6).toFixed(2)} M positions/s (${w[0]} in ${w[1]} s);` +
              ` native hint ${nodes} positions in ${secs.toFixed(2)} s (wall, ` +
              "with start-up; kemet bench gives the native rate)");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
