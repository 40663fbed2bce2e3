#!/usr/bin/env node
// Measures the photo settings for a 12-lead ECG (docs/media.md): renders a synthetic phone photo of a
// printed 12-lead (4032×3024, ECG paper with 1 mm and 5 mm grid, 25 mm/s, 10 mm/mV, sensor noise and
// uneven light), scales it to a long side with ffmpeg (lanczos, as a canvas downscale) and encodes it
// with libjpeg-turbo's cjpeg at a quality (the scale Chromium's canvas.toBlob uses, ×100). Prints bytes,
// the ECG grid's pixels per millimetre and the SSIM of the result against the same photo rendered
// without sensor noise and not encoded: how much of the ECG (grid, traces) survives, not of the noise.
// Needs ffmpeg and cjpeg (Debian: ffmpeg, libjpeg-turbo-progs). Usage: node scripts/measure-ekg-photo.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const W = 4032;
const H = 3024;
const PAPER_MM = { w: 280, h: 216 };
const FILL = 0.92; // the paper fills this share of the frame's width
const pxPerMm = (W * FILL) / PAPER_MM.w;
const x0 = Math.round((W - PAPER_MM.w * pxPerMm) / 2);
const y0 = Math.round((H - PAPER_MM.h * pxPerMm) / 2);

let seed = 42;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;

/** Millivolts of a beat at `t` seconds after its start (P, QRS, T as Gaussians). */
function beat(t) {
  const g = (mu, sigma, amp) => amp * Math.exp(-((t - mu) ** 2) / (2 * sigma ** 2));
  return g(0.1, 0.025, 0.15) + g(0.2, 0.008, -0.1) + g(0.22, 0.01, 1.4) + g(0.245, 0.01, -0.35) + g(0.45, 0.04, 0.3);
}

function render(noiseLevel) {
  const rgb = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      // Uneven light: brighter in the middle, as under a ceiling lamp or a phone's flash.
      const light = 1 - 0.18 * (((x - W / 2) / W) ** 2 + ((y - H / 2) / H) ** 2) * 4;
      let r = 120;
      let gr = 115;
      let b = 110; // the table around the paper
      const mmX = (x - x0) / pxPerMm;
      const mmY = (y - y0) / pxPerMm;
      if (mmX >= 0 && mmX < PAPER_MM.w && mmY >= 0 && mmY < PAPER_MM.h) {
        [r, gr, b] = [252, 246, 240];
        const dx = Math.min(mmX % 1, 1 - (mmX % 1));
        const dy = Math.min(mmY % 1, 1 - (mmY % 1));
        const DX = Math.min(mmX % 5, 5 - (mmX % 5));
        const DY = Math.min(mmY % 5, 5 - (mmY % 5));
        if (DX < 0.09 || DY < 0.09) [r, gr, b] = [228, 120, 120];
        else if (dx < 0.05 || dy < 0.05) [r, gr, b] = [242, 190, 190];
      }
      const i = (y * W + x) * 3;
      const noise = () => (random() - 0.5) * noiseLevel;
      rgb[i] = Math.max(0, Math.min(255, r * light + noise()));
      rgb[i + 1] = Math.max(0, Math.min(255, gr * light + noise()));
      rgb[i + 2] = Math.max(0, Math.min(255, b * light + noise()));
    }
  }
  // Traces: 3 rows of 4 leads and a rhythm strip, 10 mm/mV, 25 mm/s, 0.35 mm thick, a beat every 0.8 s.
  const thick = 0.35 * pxPerMm;
  const rows = [40, 85, 130, 180];
  for (const baselineMm of rows) {
    let previous = null;
    for (let x = x0 + Math.round(10 * pxPerMm); x < x0 + (PAPER_MM.w - 10) * pxPerMm; x++) {
      const seconds = (x - x0) / pxPerMm / 25;
      const mv = beat(seconds % 0.8);
      const y = y0 + (baselineMm - mv * 10) * pxPerMm;
      const from = previous === null ? y : Math.min(previous, y);
      const to = previous === null ? y : Math.max(previous, y);
      for (let yy = Math.floor(from - thick / 2); yy <= Math.ceil(to + thick / 2); yy++) {
        const i = (yy * W + x) * 3;
        rgb[i] = 35;
        rgb[i + 1] = 35;
        rgb[i + 2] = 40;
      }
      previous = y;
    }
  }
  return rgb;
}

const dir = mkdtempSync(path.join(tmpdir(), 'ekg-photo-'));
try {
  const source = path.join(dir, 'source.ppm');
  const clean = path.join(dir, 'clean.ppm');
  const header = Buffer.from(`P6\n${W} ${H}\n255\n`);
  // Noise of ±5 levels: a phone camera's output after its own denoising, in a lit ambulance.
  writeFileSync(source, Buffer.concat([header, render(10)]));
  writeFileSync(clean, Buffer.concat([header, render(0)]));
  const ffmpeg = (args) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
  console.info('long side  px/mm  quality      bytes   SSIM');
  for (const longSide of [1280, 1600, 2048, 2560]) {
    const scaled = path.join(dir, `scaled-${longSide}.ppm`);
    const reference = path.join(dir, `clean-${longSide}.ppm`);
    ffmpeg(['-i', source, '-vf', `scale=${longSide}:-2:flags=lanczos`, scaled]);
    ffmpeg(['-i', clean, '-vf', `scale=${longSide}:-2:flags=lanczos`, reference]);
    for (const quality of [60, 70, 80, 90]) {
      const jpeg = path.join(dir, `${longSide}-${quality}.jpg`);
      execFileSync('cjpeg', ['-quality', String(quality), '-outfile', jpeg, scaled]);
      const report = execFileSync('sh', [
        '-c',
        `ffmpeg -hide_banner -i ${jpeg} -i ${reference} -lavfi ssim -f null - 2>&1 | grep -o 'All:[0-9.]*'`,
      ])
        .toString()
        .trim();
      const bytes = statSync(jpeg).size;
      const mm = ((longSide * FILL) / PAPER_MM.w).toFixed(1);
      console.info(
        `${String(longSide).padStart(9)}  ${mm.padStart(5)}  ${String(quality / 100).padStart(7)}  ${String(bytes).padStart(9)}   ${report.replace('All:', '')}`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
