// helpers.mjs - what the browser tests share: waiting, and playing a
// seat's turns by clicking (and by the keyboard) as a person would.
import { mkdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const artifacts = join(dirname(fileURLToPath(import.meta.url)), "artifacts");
mkdirSync(artifacts, { recursive: true });

export function fail(msg) {
  throw new Error(msg);
}

export async function waitFor(fn, what, ms = 20000) {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > ms) fail("timed out waiting for " + what);
    await new Promise(r => setTimeout(r, 50));
  }
}

/* Waits until the page has no request in flight. */
export async function settled(page) {
  await page.locator("body:not([data-busy])").waitFor({ timeout: 20000 });
}

/* Waits until the page has no request in flight and plays no move back. */
export async function still(page, ms = 60000) {
  await page.locator("body:not([data-busy]):not([data-playing])").waitFor({ timeout: ms });
}

/* Whose turn the page says it is: "mine", "theirs" or "over". */
export async function turn(page) {
  await still(page);
  const t = (await page.locator("#turn").textContent({ timeout: 20000 })) || "";
  if (/won|drawn/.test(t)) return "over";
  return t.includes("your turn") ? "mine" : "theirs";
}

/* Plays one action of the human on `page`: throw, or pick a highlighted
 * piece and a highlighted target (by the keyboard when `keys`). */
export async function playOnce(page, keys) {
  if (await page.locator("#throw").count()) {
    const version = await page.locator("#turn").getAttribute("data-version");
    if (keys) {
      await page.locator("#throw").focus();
      await page.keyboard.press("Enter");
    } else await page.locator("#throw").click();
    /* the throw answered (a throw that cannot be used is passed, and the
       same side may throw again: the button is then drawn anew) */
    await waitFor(async () => (await page.locator("#turn").getAttribute("data-version")) !== version, "the throw's answer");
    return "throw";
  }
  if (await chooseWay(page)) return "move";
  const src = page.locator(".source").first();
  if (!(await src.count())) return null; /* the page is between two states */
  if (keys) {
    await src.focus();
    await page.keyboard.press("Enter");
  } else await src.click();
  await settled(page);
  const dst = page.locator(".target").first();
  await dst.waitFor({ timeout: 5000 });
  if (keys) {
    await dst.focus();
    await page.keyboard.press("Enter");
  } else await dst.click();
  await settled(page);
  await chooseWay(page);
  return "move";
}

/* Where two ways end on the hole picked (a count onto a line's or river's
 * end and one straight there), the page offers both below the board: the
 * first is taken. Says whether there was a choice. */
async function chooseWay(page) {
  const way = page.locator("button.way").first();
  if (!(await way.count())) return false;
  await way.click();
  await settled(page);
  return true;
}

export async function playUntil(page, done, keysEvery = 5) {
  let n = 0;
  for (let i = 0; i < 3000; i++) {
    const t = await turn(page);
    if (t === "over" || (await done())) return n;
    if (t === "mine") {
      await playOnce(page, n % keysEvery === 1);
      n++;
    }
    await page.waitForTimeout(30);
  }
  await page.screenshot({ path: join(artifacts, "stuck.png"), fullPage: true });
  fail("the game did not end: " + (await page.locator("#turn").textContent()) + " / " + (await page.locator("#msg").textContent()));
}

/* What the board writes over itself, as seen on the screen: each label's
 * (an arrow's: a hint's rank, a step's number) text, size in CSS px and
 * whether it covers a piece, and each sign's and number's size. */
export async function boardText(page) {
  return page.evaluate(() => {
    const svg = document.querySelector(".board");
    const k = Math.hypot(svg.getScreenCTM().a, svg.getScreenCTM().b);
    const pieces = [...svg.querySelectorAll(".piece:not(.ghost)")].map(c => c.getBoundingClientRect());
    const labels = [...svg.querySelectorAll(".labels > g")].map(g => {
      const r = g.querySelector("rect").getBoundingClientRect();
      /* a piece is covered when the label's box reaches into its circle */
      const over = pieces.some(p => {
        const cx = p.x + p.width / 2, cy = p.y + p.height / 2, rad = p.width / 2 - 1;
        const dx = Math.max(r.left - cx, 0, cx - r.right), dy = Math.max(r.top - cy, 0, cy - r.bottom);
        return Math.hypot(dx, dy) < rad;
      });
      return { text: g.querySelector("text").textContent, kind: g.getAttribute("class"), px: +g.querySelector("text").getAttribute("font-size") * k, over };
    });
    const size = sel => [...svg.querySelectorAll(sel)].map(t => +t.getAttribute("font-size") * k);
    return { labels, marks: size("text.mark"), nums: size("text.num") };
  });
}
