// Draws the LeadNest app icons with no dependencies: shapes are sampled 4×4 per pixel for smooth
// edges and written as PNG through node:zlib. Run: node scripts/make-icons.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const publicDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');

// One drawing on a 100×100 canvas, shared with public/favicon.svg and src/components/ui/logo.tsx.
const background = [0x1f, 0x29, 0x37];
const roofColor = [0x5e, 0xea, 0xd4];
const houseColor = [0xf9, 0xfa, 0xfb];
const roof = [
  [50, 18],
  [84, 46],
  [76, 52],
  [50, 31],
  [24, 52],
  [16, 46],
];
const house = [
  [28, 50],
  [50, 33],
  [72, 50],
  [72, 80],
  [28, 80],
];
const door = { x0: 43, y0: 62, x1: 57, y1: 80 };
const cornerRadius = 22;

function insidePolygon(points, x, y) {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i];
    const [xj, yj] = points[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function insideRoundedSquare(x, y) {
  const cx = Math.min(Math.max(x, cornerRadius), 100 - cornerRadius);
  const cy = Math.min(Math.max(y, cornerRadius), 100 - cornerRadius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= cornerRadius ** 2;
}

/** Colour and coverage at a point of the logo; `scale` shrinks the mark for maskable safe zones. */
function sample(x, y, { fullBleed, scale }) {
  if (!fullBleed && !insideRoundedSquare(x, y)) return null;
  const lx = 50 + (x - 50) / scale;
  const ly = 50 + (y - 50) / scale;
  if (insidePolygon(roof, lx, ly)) return roofColor;
  const inDoor = lx >= door.x0 && lx <= door.x1 && ly >= door.y0 && ly <= door.y1;
  if (insidePolygon(house, lx, ly) && !inDoor) return houseColor;
  return background;
}

function render(size, options) {
  const grid = 4;
  const pixels = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let hits = 0;
      for (let sy = 0; sy < grid; sy++) {
        for (let sx = 0; sx < grid; sx++) {
          const color = sample(
            ((px + (sx + 0.5) / grid) / size) * 100,
            ((py + (sy + 0.5) / grid) / size) * 100,
            options,
          );
          if (!color) continue;
          r += color[0];
          g += color[1];
          b += color[2];
          hits++;
        }
      }
      const o = (py * size + px) * 4;
      if (hits > 0) {
        pixels[o] = Math.round(r / hits);
        pixels[o + 1] = Math.round(g / hits);
        pixels[o + 2] = Math.round(b / hits);
      }
      pixels[o + 3] = Math.round((hits / (grid * grid)) * 255);
    }
  }
  return pixels;
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
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

function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const stride = size * 4;
  const raw = Buffer.alloc((stride + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (stride + 1)] = 0; // filter: none
    rgba.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function writeIcon(name, size, options) {
  const file = join(publicDir, 'icons', name);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, encodePng(size, render(size, options)));
  console.log(`wrote ${file}`);
}

writeIcon('icon-192.png', 192, { fullBleed: false, scale: 1 });
writeIcon('icon-512.png', 512, { fullBleed: false, scale: 1 });
// Maskable icons may be cropped to a circle of 80% diameter, so the mark shrinks to fit inside it.
writeIcon('icon-maskable-512.png', 512, { fullBleed: true, scale: 0.8 });

const points = (list) => list.map(([x, y]) => `${x} ${y}`).join(' L');
const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <title>LeadNest</title>
  <rect width="100" height="100" rx="${cornerRadius}" fill="#1f2937"/>
  <path d="M${points(roof)} Z" fill="#5eead4"/>
  <path d="M${points(house)} Z M${door.x0} ${door.y1} L${door.x0} ${door.y0} L${door.x1} ${door.y0} L${door.x1} ${door.y1} Z" fill="#f9fafb" fill-rule="evenodd"/>
</svg>
`;
writeFileSync(join(publicDir, 'favicon.svg'), svg);
console.log(`wrote ${join(publicDir, 'favicon.svg')}`);
