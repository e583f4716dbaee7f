// streams.js - the streams of an area as the seed's JavaScript computes them,
// for benchmarks/bench_streams.py: calcHeight, terra (height, lake, feature,
// vegetation) and the stream tracing of SPEC 7, transcribed plainly, run by
// node.  Prints one JSON line: the streams (sources, point counts, ends) and
// the time of the computation alone (ms), measured inside node.
"use strict";
const PROF = [77,80,84,88,92,96,101,104,108,112,115,118,120,123,126,129,131,133,134,134,133,133,131,130,129,126,123,122,122,122,123,125,126,130,134,137,137,138,138,137,135,133,129,123,118,111,105,101,97,93,90,86,82,78,74,71,69,67,67,67,66,67,69,71,73,74,73,73,71,69,66,62,58,54,52,52,54,55,58,59,62,63,63,65,65,65,66,66,67,69,70,73,77,80,82,85,88,90,93,95,96,96,96,96,93,92,90,85,80,75,71,67,63,60,58,55,52,50,47,44,43,41,40,39,36,35,33,32,30,28,24,20,15,11,7,3,2,2,2,2,2,2,3,6,7,10,11,15,18,22,24,25,25,26,26,25,25,25,25,25,26,28,29,30,33,36,37,39,39,40,40,40,39,39,39,37,37,37,36,36,36,35,35,33,33,32,30,28,25,20,15,11,10,9,9,9,9,11,14,15,17,17,18,18,18,18,18,18,17,17,17,15,14,13,11,11,10,10,10,11,13,14,17,20,22,25,28,30,35,39,41,45,50,58,63,69,73,77,80,82,84,84,85,85,84,84,82,81,80,75,73,71,71,73,74,75];
const AH = [0, 13, 21, 22, 29], BH = [27, 26, 21, 11, 1];
const A1 = [-43, -43, -56, 31, 4], B1 = [-3, -12, 22, 2, 32];
const A2 = [-24, -25, 60, 10, -30], B2 = [15, -54, -34, -51, -43];
const A3 = [-51, -62, -58, -64, 33], B3 = [-44, 20, 27, -64, -44];
const MASK = 255, LAKE_HT = 204, WATERHOLE = 4;

function calcHeight(x, y) {
  let ht = 0;
  for (let i = 0; i < AH.length; i++) {
    const j = (AH[i] * x + BH[i] * y) / 128, jint = Math.floor(j), jfrac = j - jint;
    const p0 = PROF[jint & MASK], p1 = PROF[(jint + 1) & MASK];
    ht += p0 + jfrac * (p1 - p0);
  }
  return ht;
}
function calcProf(A, x, B, y) {
  let p = 0;
  for (let i = 0; i < A.length; i++) p += PROF[(Math.floor(A[i] * x + B[i] * y) >> 7) & MASK];
  return p;
}
// terra: height (the water surface on lakes) and the point feature
function terra(x, y) {
  const ht = calcHeight(x, y);
  if (LAKE_HT > ht) return { height: LAKE_HT, feature: 0 };
  if (calcProf(A1, x, B1, y) < 120) return { height: ht, feature: 0 };
  const xr = Math.round(x), yr = Math.round(y), xryr = xr * yr;
  const a = calcProf(B2, xr, A3, yr);
  const f = Math.round(a * xryr / 128) & 0xfff;
  let feature = 0;
  if (f === 4) {
    const xyff = xryr & 0xff;
    feature = xyff < 32 ? 1 : xyff < 128 ? 2 : xyff < 160 ? 4 : xyff < 200 ? 5 : 3;
  }
  return { height: ht, feature: feature };
}
function trace(x, y) {
  const route = [[x, y]];
  let h0 = terra(x, y).height, length = 0;
  for (;;) {
    let best = null, hmin = h0;
    for (let dx = -5; dx <= 5; dx++)
      for (let dy = -5; dy <= 5; dy++) {
        if (dx === 0 || dy === 0) continue;
        const h = terra(x + dx, y + dy).height;
        if (h < hmin) { hmin = h; best = [dx, dy]; }
      }
    if (best === null) return { route: route, length: length, end: "hollow" };
    const next = length + Math.sqrt(best[0] * best[0] + best[1] * best[1]);
    if (next > 300) return { route: route, length: length, end: "limit" };
    x += best[0]; y += best[1]; route.push([x, y]); length = next;
    if (hmin <= LAKE_HT) return { route: route, length: length, end: "lake" };
    h0 = hmin;
  }
}
function streams(x0, y0, nx, ny, margin) {
  const out = [];
  for (let y = y0 - margin; y < y0 + ny + margin; y++)
    for (let x = x0 - margin; x < x0 + nx + margin; x++) {
      if (terra(x, y).feature !== WATERHOLE) continue;
      const s = trace(x, y);
      if (s.route.length > 10) out.push({ source: [x, y], points: s.route.length, end: s.end, length: s.length });
    }
  return out;
}
const [x0, y0, nx, ny, margin] = process.argv.slice(2).map(Number);
streams(x0, y0, 50, 50, 0); // warm up the JIT
const t0 = process.hrtime.bigint();
const found = streams(x0, y0, nx, ny, margin);
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
console.log(JSON.stringify({ ms: ms, streams: found }));
