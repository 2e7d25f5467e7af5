// Draws media/icon.png (the Marketplace icon, 256×256): a white cloud of three nodes on a blue rounded square.
// Plain geometry, 4×4 supersampled, written as a PNG with node's zlib. Run: node scripts/icon.mjs
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const SIZE = 256;
const SS = 4;
const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'media', 'icon.png');

const inRoundedSquare = (x, y) => {
  const r = 48, lo = 8, hi = SIZE - 8;
  const cx = Math.min(Math.max(x, lo + r), hi - r), cy = Math.min(Math.max(y, lo + r), hi - r);
  return x >= lo && x <= hi && y >= lo && y <= hi && (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
const circles = [[88, 142, 42], [132, 112, 54], [176, 146, 38]];
const inCloud = (x, y) => circles.some(([cx, cy, r]) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r)
  || (x >= 88 && x <= 176 && y >= 142 && y <= 184);
const nodes = [[96, 162], [132, 130], [168, 162]];
const inNode = (x, y) => nodes.some(([cx, cy]) => (x - cx) ** 2 + (y - cy) ** 2 <= 11 * 11);
const onLink = (x, y) => [[0, 1], [1, 2], [0, 2]].some(([a, b]) => {
  const [x1, y1] = nodes[a], [x2, y2] = nodes[b];
  const t = Math.max(0, Math.min(1, ((x - x1) * (x2 - x1) + (y - y1) * (y2 - y1)) / ((x2 - x1) ** 2 + (y2 - y1) ** 2)));
  return (x - (x1 + t * (x2 - x1))) ** 2 + (y - (y1 + t * (y2 - y1))) ** 2 <= 3.5 * 3.5;
});

function color(x, y) { // RGBA of one sample
  if (!inRoundedSquare(x, y)) return [0, 0, 0, 0];
  const t = y / SIZE;
  const bg = [Math.round(30 + 20 * t), Math.round(110 - 40 * t), Math.round(200 - 50 * t), 255];
  if (inNode(x, y) || (inCloud(x, y) && onLink(x, y))) return [Math.round(bg[0] * 0.9), Math.round(bg[1] * 0.9), Math.round(bg[2] * 0.95), 255];
  if (inCloud(x, y)) return [250, 252, 255, 255];
  return bg;
}

const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++) {
  raw[y * (SIZE * 4 + 1)] = 0; // filter: none
  for (let x = 0; x < SIZE; x++) {
    const acc = [0, 0, 0, 0];
    for (let sy = 0; sy < SS; sy++) for (let sx = 0; sx < SS; sx++) {
      const c = color(x + (sx + 0.5) / SS, y + (sy + 0.5) / SS);
      for (let i = 0; i < 3; i++) acc[i] += c[i] * c[3];
      acc[3] += c[3];
    }
    const o = y * (SIZE * 4 + 1) + 1 + x * 4;
    const a = acc[3] / (SS * SS);
    for (let i = 0; i < 3; i++) raw[o + i] = acc[3] ? Math.round(acc[i] / acc[3]) : 0;
    raw[o + 3] = Math.round(a);
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
const crc32 = (buf) => { let c = 0xffffffff; for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
const chunk = (type, data) => {
  const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(SIZE, 0); ihdr.writeUInt32BE(SIZE, 4);
ihdr[8] = 8; ihdr[9] = 6; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0; // 8-bit RGBA
fs.writeFileSync(out, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]));
console.log(`wrote ${out}`);
