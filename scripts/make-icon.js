#!/usr/bin/env node
// Draws media/icon.png (128x128): list lines watched by an eye, in Kubernetes blue. Uses only Node
// (zlib for the PNG's deflate stream); shapes are signed distances, 4x4 supersampled for smooth edges.
// Deterministic: the same script writes the same bytes. Usage: node scripts/make-icon.js [out.png]
'use strict';
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

const size = 128;
const out = process.argv[2] || path.join(__dirname, '..', 'media', 'icon.png');

const blue = [0x32, 0x6c, 0xe5, 255]; // Kubernetes blue
const white = [255, 255, 255, 255];
const navy = [0x0b, 0x2a, 0x6f, 255];

// Signed distances: negative inside.
const circle = (cx, cy, r) => (x, y) => Math.hypot(x - cx, y - cy) - r;
function roundedRect(x0, y0, x1, y1, r) {
  const cx = (x0 + x1) / 2,
    cy = (y0 + y1) / 2,
    hx = (x1 - x0) / 2 - r,
    hy = (y1 - y0) / 2 - r;
  return (x, y) => {
    const dx = Math.abs(x - cx) - hx,
      dy = Math.abs(y - cy) - hy;
    return Math.hypot(Math.max(dx, 0), Math.max(dy, 0)) + Math.min(Math.max(dx, dy), 0) - r;
  };
}
const intersect = (a, b) => (x, y) => Math.max(a(x, y), b(x, y));
const grow = (shape, by) => (x, y) => shape(x, y) - by;

// An eye: the lens where two circles overlap, 76 wide and 44 high, centred at (ex, ey).
const ex = 82,
  ey = 86,
  halfWidth = 38,
  halfHeight = 22;
const lensOffset = (halfWidth * halfWidth - halfHeight * halfHeight) / (2 * halfHeight);
const lensRadius = halfHeight + lensOffset;
const eye = intersect(
  circle(ex, ey + lensOffset, lensRadius),
  circle(ex, ey - lensOffset, lensRadius),
);

// Back to front; each layer paints its colour where its shape covers the sample.
const layers = [
  [roundedRect(0, 0, 128, 128, 24), blue],
  [roundedRect(20, 26, 92, 38, 6), white], // the list's rows
  [roundedRect(20, 46, 78, 58, 6), white],
  [roundedRect(20, 66, 60, 78, 6), white],
  [grow(eye, 6), blue], // a gap so the eye stands clear of the rows
  [eye, white],
  [intersect(circle(ex, ey, 17), eye), blue], // iris
  [circle(ex, ey, 8), navy], // pupil
  [circle(ex + 6, ey - 6, 3.5), white], // highlight
];

const samples = 4;
const pixels = Buffer.alloc(size * size * 4);
for (let py = 0; py < size; py++) {
  for (let px = 0; px < size; px++) {
    const sum = [0, 0, 0, 0];
    for (let sy = 0; sy < samples; sy++) {
      for (let sx = 0; sx < samples; sx++) {
        const x = px + (sx + 0.5) / samples,
          y = py + (sy + 0.5) / samples;
        let colour = [0, 0, 0, 0];
        for (const [shape, c] of layers) if (shape(x, y) <= 0) colour = c;
        // Premultiplied, so transparent samples at the rounded corners do not darken the edge.
        for (let i = 0; i < 3; i++) sum[i] += (colour[i] * colour[3]) / 255;
        sum[3] += colour[3];
      }
    }
    const n = samples * samples,
      o = (py * size + px) * 4,
      alpha = sum[3] / n;
    for (let i = 0; i < 3; i++)
      pixels[o + i] = alpha ? Math.round(((sum[i] / n) * 255) / alpha) : 0;
    pixels[o + 3] = Math.round(alpha);
  }
}

// PNG: signature, IHDR (RGBA, 8 bit), IDAT (each row prefixed with filter type 0), IEND.
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
const header = Buffer.alloc(13);
header.writeUInt32BE(size, 0);
header.writeUInt32BE(size, 4);
header[8] = 8; // bit depth
header[9] = 6; // colour type RGBA
const rows = Buffer.alloc(size * (size * 4 + 1));
for (let y = 0; y < size; y++)
  pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
fs.writeFileSync(out, png);
console.log(`${out}: ${size}x${size}, ${png.length} bytes`);
