// Takes docs/playground.png, docs/playground-dark.png and docs/playground-phone.png, the README's pictures of the built playground (run after `npm run build`).

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";
import { launchChromium, playgroundFile } from "./lib/chromium.ts";

// A state that shows every layer at work (the config, a variable, a flag, a preset), a typo with its fix, the
// explain view of the key the variable overrides, and the completion list: docs/playground.png in light mode,
// docs/playground-dark.png in dark mode.
const state = new URLSearchParams({
  config:
    '{\n  "schema": 1,\n  "theme": "ocean",\n  "presets": ["standard"],\n  "modules": {\n    "exclude": ' +
    '["legacy-*"]\n  },\n  "hooks": { "onFailure": "Fail" }\n}\n',
  env: "DROPKIT_THEME=forest\nDROPKIT_CACHE_ENABLED=no",
  exclude: "shop",
});
const outDir = process.argv[2] ?? "docs";

const browser = await launchChromium();
try {
  for (const colorScheme of ["light", "dark"] as const) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1240 }, colorScheme });
    await page.goto(`${pathToFileURL(playgroundFile).href}#${state}`);
    await page.waitForSelector('body[data-state="ready"]');
    // The part loaded after the first result (completion, Explain) is in once the examples are listed.
    await page.waitForFunction(() => (document.getElementById("examples") as HTMLSelectElement).options.length > 1);
    // Fix the typo from the problems list, then explain theme, then ask for completion of a value.
    await page.locator("#problems button.fix").first().click();
    await page.waitForSelector('body[data-state="ready"]');
    await page.locator("#resolved button.key", { hasText: /^theme$/ }).click();
    await page.waitForSelector("#explain:not([hidden])");
    await page.locator(".cm-line").nth(2).click();
    // The caret just inside the opening quote of "ocean": every theme is offered.
    await page.keyboard.press("End");
    for (let i = 0; i < 7; i++) await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("Control+Space");
    await page.waitForSelector(".cm-tooltip-autocomplete");
    const file = path.join(outDir, colorScheme === "light" ? "playground.png" : "playground-dark.png");
    fs.writeFileSync(file, toPalettePng(await page.screenshot()));
    await page.close();
  }
  // A phone: the config, its result right after it, and the verdict kept at the bottom of the screen.
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  await phone.goto(`${pathToFileURL(playgroundFile).href}#${state}`);
  await phone.waitForSelector('body[data-state="ready"]');
  await phone.locator(".editor-head").evaluate((head) => head.scrollIntoView({ block: "start" }));
  fs.writeFileSync(path.join(outDir, "playground-phone.png"), toPalettePng(await phone.screenshot()));
  await phone.close();
} finally {
  await browser.close();
}

/**
 * Re-encodes Chromium's RGB PNG with a 256-colour palette: a third of the size, and no image tool to install.
 * The palette keeps one colour per 4-bit-per-channel bucket (so that rare accent colours survive), then the most
 * frequent colours; every other colour maps to its nearest palette entry.
 */
function toPalettePng(png: Buffer): Buffer {
  const idat: Buffer[] = [];
  let header: Buffer | undefined;
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === "IHDR") header = data;
    if (type === "IDAT") idat.push(data);
    at += 12 + length;
  }
  if (header?.[8] !== 8 || (header[9] !== 2 && header[9] !== 6)) return png;
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const bpp = header[9] === 6 ? 4 : 3;
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const rowLength = width * bpp;
  const pixels = Buffer.alloc(height * rowLength);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (rowLength + 1)]!;
    for (let x = 0; x < rowLength; x++) {
      const a = x >= bpp ? pixels[y * rowLength + x - bpp]! : 0;
      const b = y > 0 ? pixels[(y - 1) * rowLength + x]! : 0;
      const c = x >= bpp && y > 0 ? pixels[(y - 1) * rowLength + x - bpp]! : 0;
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter]!;
      pixels[y * rowLength + x] = (raw[y * (rowLength + 1) + 1 + x]! + predictor) & 255;
    }
  }
  const rgb = (i: number) => (pixels[i]! << 16) | (pixels[i + 1]! << 8) | pixels[i + 2]!;
  const counts = new Map<number, number>();
  for (let i = 0; i < pixels.length; i += bpp) counts.set(rgb(i), (counts.get(rgb(i)) ?? 0) + 1);
  const byCount = [...counts].sort((p, q) => q[1] - p[1]).map(([colour]) => colour);
  const buckets = new Map<number, number>();
  for (const colour of byCount) {
    const bucket = ((colour >> 20) << 8) | (((colour >> 12) & 15) << 4) | ((colour >> 4) & 15);
    if (!buckets.has(bucket)) buckets.set(bucket, colour);
  }
  const palette = [...buckets.values()].slice(0, 256);
  for (const colour of byCount) if (palette.length < 256 && !palette.includes(colour)) palette.push(colour);
  const index = new Map(palette.map((colour, i) => [colour, i]));
  const nearest = (colour: number): number => {
    let found = index.get(colour);
    if (found !== undefined) return found;
    let best = Infinity;
    palette.forEach((p, i) => {
      const d = ((colour >> 16) - (p >> 16)) ** 2 + (((colour >> 8) & 255) - ((p >> 8) & 255)) ** 2 + ((colour & 255) - (p & 255)) ** 2;
      if (d < best) [best, found] = [d, i];
    });
    index.set(colour, found!);
    return found!;
  };
  const indexed = Buffer.alloc(height * (width + 1));
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) indexed[y * (width + 1) + 1 + x] = nearest(rgb((y * width + x) * bpp));
  const plte = Buffer.alloc(palette.length * 3);
  palette.forEach((p, i) => {
    plte.set([p >> 16, (p >> 8) & 255, p & 255], i * 3);
  });
  const ihdr = Buffer.from(header);
  ihdr[9] = 3; // palette colour type
  return Buffer.concat([
    png.subarray(0, 8),
    chunk("IHDR", ihdr),
    chunk("PLTE", plte),
    chunk("IDAT", zlib.deflateSync(indexed, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(zlib.crc32(body), body.length + 4);
  return out;
}
