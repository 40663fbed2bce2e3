/**
 * Makes the apps' bitmap icons from their SVG (apps/crew/public/favicon.svg, apps/hospital/public/
 * favicon.svg): Debian's Chromium draws each size, and favicon.ico holds 16, 32 and 48 px PNGs (an ICO
 * may carry PNG images). Run after changing an SVG; the results are committed.
 *
 *   npx tsx e2e/tools/make-icons.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium';

const ROOT = path.resolve(import.meta.dirname, '../..');

async function render(svg: string, size: number): Promise<Buffer> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}</style><img src="${src}" width="${size}" height="${size}">`,
    );
    return await page.screenshot({ omitBackground: true, type: 'png' });
  } finally {
    await browser.close();
  }
}

/** An ICO file whose images are PNGs (Windows Vista and every browser read them). */
function ico(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, index) => {
    const entry = 6 + 16 * index;
    header.writeUInt8(size >= 256 ? 0 : size, entry);
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1);
    header.writeUInt16LE(1, entry + 4);
    header.writeUInt16LE(32, entry + 6);
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map((image) => image.png)]);
}

for (const app of ['crew', 'hospital']) {
  const dir = path.join(ROOT, 'apps', app, 'public');
  const svg = readFileSync(path.join(dir, 'favicon.svg'), 'utf8');
  const small = await Promise.all([16, 32, 48].map(async (size) => ({ size, png: await render(svg, size) })));
  writeFileSync(path.join(dir, 'favicon.ico'), ico(small));
  if (app === 'hospital') {
    writeFileSync(path.join(dir, 'apple-touch-icon-180.png'), await render(svg, 180));
    writeFileSync(path.join(dir, 'icon-192.png'), await render(svg, 192));
  }
  console.info(`${app}: favicon.ico${app === 'hospital' ? ', apple-touch-icon-180.png, icon-192.png' : ''}`);
}
