// terrain.js - the seed's JavaScript (calcHeight, calcProf, terra) transcribed
// for benchmarks/bench_terrain.py: the original's speed, run by node.
//
//   node terrain.js MODE X0 Y0 NX NY STEP REPEAT [OUT]
//
// MODE is "height" (calcHeight at every grid point) or "terra" (height, depth,
// terrain and feature).  Times only the computation inside node (REPEAT runs,
// after one warm-up) and prints JSON: the median seconds and points per second.
// With OUT, writes the last height grid (float64, row-major) there for the
// benchmark's bit-for-bit check.  SPEC's choices: the 256-entry profile, the
// 0xfff feature mask, calcProf as floor then >> 7 (the Java reference).
"use strict";
const fs = require("fs");

const profile = [
  77, 80, 84, 88, 92, 96, 101, 104, 108, 112, 115, 118, 120, 123, 126, 129,
  131, 133, 134, 134, 133, 133, 131, 130, 129, 126, 123, 122, 122, 122, 123, 125,
  126, 130, 134, 137, 137, 138, 138, 137, 135, 133, 129, 123, 118, 111, 105, 101,
  97, 93, 90, 86, 82, 78, 74, 71, 69, 67, 67, 67, 66, 67, 69, 71,
  73, 74, 73, 73, 71, 69, 66, 62, 58, 54, 52, 52, 54, 55, 58, 59,
  62, 63, 63, 65, 65, 65, 66, 66, 67, 69, 70, 73, 77, 80, 82, 85,
  88, 90, 93, 95, 96, 96, 96, 96, 93, 92, 90, 85, 80, 75, 71, 67,
  63, 60, 58, 55, 52, 50, 47, 44, 43, 41, 40, 39, 36, 35, 33, 32,
  30, 28, 24, 20, 15, 11, 7, 3, 2, 2, 2, 2, 2, 2, 3, 6,
  7, 10, 11, 15, 18, 22, 24, 25, 25, 26, 26, 25, 25, 25, 25, 25,
  26, 28, 29, 30, 33, 36, 37, 39, 39, 40, 40, 40, 39, 39, 39, 37,
  37, 37, 36, 36, 36, 35, 35, 33, 33, 32, 30, 28, 25, 20, 15, 11,
  10, 9, 9, 9, 9, 11, 14, 15, 17, 17, 18, 18, 18, 18, 18, 18,
  17, 17, 17, 15, 14, 13, 11, 11, 10, 10, 10, 11, 13, 14, 17, 20,
  22, 25, 28, 30, 35, 39, 41, 45, 50, 58, 63, 69, 73, 77, 80, 82,
  84, 84, 85, 85, 84, 84, 82, 81, 80, 75, 73, 71, 71, 73, 74, 75,
];
const AH = [0, 13, 21, 22, 29], BH = [27, 26, 21, 11, 1];
const A1 = [-43, -43, -56, 31, 4], B1 = [-3, -12, 22, 2, 32];
const A2 = [-24, -25, 60, 10, -30], B2 = [15, -54, -34, -51, -43];
const A3 = [-51, -62, -58, -64, 33], B3 = [-44, 20, 27, -64, -44];
const RECIP128 = 1 / 128, PI1000 = Math.PI * 1000, PI10000 = Math.PI * 10000;
const TERRAINS = { LAKE: 0, TOWN: 1, GRASS: 2, MOOR: 3, WOOD: 4, THICKET: 5, MUD: 7 };
const FEATURES = { NONE: 0, MINE: 1, BOULDER: 2, ROOT: 3, WATERHOLE: 4, KNOLL: 5, X: 6, CONE: 7 };
const LAKE_HEIGHT = 204, LAKE_BASE = 204;

function calcHeight(x, y) {
  let ht = 0;
  for (let i = 0; i < 5; i++) {
    const j = (AH[i] * x + BH[i] * y) * RECIP128;
    const jint = Math.floor(j);
    const jfrac = j - jint;
    const prof0 = profile[jint & 0xff];
    const prof1 = profile[(jint + 1) & 0xff];
    ht += prof0 + jfrac * (prof1 - prof0); // interpolate
  }
  return ht;
}

function calcProf(a, x, b, y) {
  let p = 0;
  for (let i = 0; i < 5; i++) p += profile[(Math.floor(a[i] * x + b[i] * y) >> 7) & 0xff];
  return p;
}

function terra(x, y) {
  const height = calcHeight(x, y);
  if (LAKE_HEIGHT > height)
    return { height: LAKE_HEIGHT, depth: LAKE_HEIGHT - height, terrain: TERRAINS.LAKE, feature: FEATURES.NONE };
  if (LAKE_BASE > height) return { height, depth: 0, terrain: TERRAINS.MUD, feature: FEATURES.NONE };
  if (calcProf(A1, x, B1, y) < 120) return { height, depth: 0, terrain: TERRAINS.TOWN, feature: FEATURES.NONE };
  const xr = Math.round(x), yr = Math.round(y), xryr = xr * yr;
  const a = calcProf(B2, xr, A3, yr);
  const f = Math.round(a * xryr * RECIP128) & 0xfff;
  let feature = FEATURES.NONE;
  if (4 === f) {
    const xyff = xryr & 0xff;
    if (xyff < 32) feature = FEATURES.MINE;
    else if (xyff < 128) feature = FEATURES.BOULDER;
    else if (xyff < 160) feature = FEATURES.WATERHOLE;
    else if (xyff < 200) feature = FEATURES.KNOLL;
    else feature = FEATURES.ROOT;
  } else if (8 === f && (Math.round(PI1000 * xryr) & 0xff) < 4) feature = FEATURES.X;
  else if (16 === f && (Math.round(PI10000 * xryr) & 0xff) < 8) feature = FEATURES.CONE;
  const b = calcProf(A2, x, B2, y), c = calcProf(A3, x, B3, y);
  let terrain;
  if (b < 255) terrain = c < 255 ? TERRAINS.GRASS : TERRAINS.MOOR;
  else terrain = c < 200 ? TERRAINS.THICKET : TERRAINS.WOOD;
  return { height, depth: 0, terrain, feature };
}

function main() {
  const [mode, x0s, y0s, nxs, nys, steps, reps, outPath] = process.argv.slice(2);
  const x0 = Number(x0s), y0 = Number(y0s), nx = Number(nxs), ny = Number(nys), step = Number(steps);
  const repeat = Number(reps);
  const h = new Float64Array(nx * ny), d = new Float64Array(mode === "terra" ? nx * ny : 0);
  const te = new Uint8Array(mode === "terra" ? nx * ny : 0), fe = new Uint8Array(te.length);
  const run = () => {
    let k = 0;
    for (let r = 0; r < ny; r++) {
      const y = y0 + r * step;
      for (let c = 0; c < nx; c++, k++) {
        const x = x0 + c * step;
        if (mode === "height") h[k] = calcHeight(x, y);
        else {
          const t = terra(x, y);
          h[k] = t.height; d[k] = t.depth; te[k] = t.terrain; fe[k] = t.feature;
        }
      }
    }
  };
  run(); // warm-up (JIT)
  const times = [];
  for (let i = 0; i < repeat; i++) {
    const t0 = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - t0) * 1e-9);
  }
  times.sort((a, b) => a - b);
  const med = times[Math.floor(times.length / 2)];
  if (outPath) fs.writeFileSync(outPath, Buffer.from(h.buffer));
  console.log(JSON.stringify({ mode, nx, ny, step, seconds: med, all_seconds: times,
                               points_per_s: (nx * ny) / med }));
}

main();
