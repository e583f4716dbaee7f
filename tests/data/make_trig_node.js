// make_trig_node.js - regenerate trig_node.json: Math.sin and Math.cos as
// node computes them, on a fixed, generated set of inputs.
//
//     node tests/data/make_trig_node.js > tests/data/trig_node.json
//
// The inputs are deterministic (a seeded xorshift generator), so rerunning
// gives the same file with the same node.  Every number is stored as the 16
// hex digits of its IEEE-754 bits (exact).  tests/test_fdlibm.py checks the
// core's rt_sin/rt_cos and tests/fdlibm_reference.py against it.
"use strict";

const buf = new DataView(new ArrayBuffer(8));
function toHex(x) {
  buf.setFloat64(0, x);
  return buf.getBigUint64(0).toString(16).padStart(16, "0");
}
function fromBits(hi, lo) {
  buf.setUint32(0, hi >>> 0);
  buf.setUint32(4, lo >>> 0);
  return buf.getFloat64(0);
}
// the neighbouring doubles of a finite x (k ulps away, k may be negative)
function ulpStep(x, k) {
  buf.setFloat64(0, x);
  let b = buf.getBigInt64(0);
  b += x >= 0 ? BigInt(k) : -BigInt(k);
  buf.setBigInt64(0, b);
  return buf.getFloat64(0);
}

// xorshift32, seeded: uniform() in [0, 1)
let state = 0x9e3779b9;
function next32() {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return state >>> 0;
}
function uniform() {
  return ((next32() >>> 5) * 2 ** 26 + (next32() >>> 6)) / 2 ** 53;
}
function randInt(n) {
  return Math.floor(uniform() * n);
}
function sign() {
  return next32() & 1 ? -1 : 1;
}

const inputs = [];
const seen = new Set();
function add(x) {
  const h = toHex(x);
  if (!seen.has(h)) {
    seen.add(h);
    inputs.push(x);
  }
}
const groups = {};
function group(name, fill) {
  const before = inputs.length;
  fill();
  groups[name] = inputs.length - before;
}

group("special", () => {
  for (const x of [0, -0, NaN, Infinity, -Infinity, Number.MIN_VALUE, -Number.MIN_VALUE,
    Number.MAX_VALUE, -Number.MAX_VALUE, Number.EPSILON, 2 ** -1022, -(2 ** -1022),
    2 ** -1074 * 12345, 1, -1, 0.5, 2, 3, Math.PI, -Math.PI, Math.PI / 2, Math.PI / 4,
    Math.PI / 6, Math.PI / 3, 2 * Math.PI, 1e22, -1e22, 1e300, 1e308, 2 ** 1023, 1e-300]) {
    add(x);
  }
  // the thresholds of the algorithm (high words 0x3e400000, 0x3fd33333, 0x3fe90000,
  // 0x3fe921fb, 0x4002d97c, 0x413921fb, 0x7ff00000), with low words 0, 1, max
  for (const hi of [0x3e400000, 0x3fd33333, 0x3fe90000, 0x3fe921fb, 0x3fe921fc, 0x3ff921fb,
    0x4002d97c, 0x413921fb, 0x413921fc, 0x41400000, 0x7fefffff]) {
    for (const lo of [0, 1, 0x54442d18, 0xffffffff]) {
      add(fromBits(hi, lo));
      add(-fromBits(hi, lo));
    }
    add(fromBits(hi - 1, 0xffffffff));
    add(-fromBits(hi - 1, 0xffffffff));
  }
});

group("small", () => {
  for (let i = 0; i < 3000; i++) {
    const e = -1074 + uniform() * 1074;
    add(sign() * Math.min(2 ** e, 0.8) * (1 + uniform()));
  }
  for (let i = 0; i < 1500; i++) add(sign() * uniform() * Math.PI);
});

group("pio2_multiples", () => {
  for (let k = -400; k <= 400; k++) {
    const x = k * (Math.PI / 2);
    for (let d = -3; d <= 3; d++) add(k === 0 ? d * 1e-300 : ulpStep(x, d));
  }
  for (let i = 0; i < 1200; i++) {
    const k = randInt(2 ** (1 + randInt(52)));
    const x = sign() * k * (Math.PI / 2);
    add(x);
    add(ulpStep(x, 1));
    add(ulpStep(x, -1));
  }
});

group("integers", () => {
  // mines: cell centres are multiples of 16 up to 2^26; integers up to 2^27
  for (let i = 0; i < 4000; i++) add(sign() * 16 * randInt(2 ** 22 + 1));
  for (let i = 0; i < 3000; i++) add(sign() * randInt(2 ** 27 + 1));
  for (let k = -1000; k <= 1000; k++) add(k);
  for (const x of [2 ** 26, 2 ** 26 - 16, 2 ** 27, 2 ** 27 - 1, 823550, 1647099, 1647100]) {
    add(x);
    add(-x);
  }
});

group("random_magnitudes", () => {
  for (let i = 0; i < 4000; i++) {
    const e = -10 + uniform() * 310; // 1e-10 .. 1e300
    add(sign() * 10 ** e * (1 + uniform()) / 2);
  }
  for (let i = 0; i < 2000; i++) {
    // random bit patterns: every exponent
    const x = fromBits(next32(), next32());
    if (Number.isFinite(x)) add(x);
  }
});

group("spiral_angles", () => {
  // findGoodSite: theta = a0 + 2*pi*j/(8k), rings k = 1..15
  const a0s = [0, 1, Math.PI / 3, uniform() * 2 * Math.PI, uniform() * 2 * Math.PI];
  for (const a0 of a0s) {
    for (let k = 1; k <= 15; k++) {
      for (let j = 0; j < 8 * k; j++) add(a0 + 2 * Math.PI * j / (8 * k));
    }
  }
});

group("profile_phases", () => {
  // makeProfile: sin(phase + 2*pi*j/lamda), lamda = length/n
  for (let s = 0; s < 8; s++) {
    const n = Math.round(2 + uniform() * (2048 / 32 - 2));
    const phase = uniform() * 2 * Math.PI;
    const lamda = 2048 / n;
    for (let j = 0; j < 2048; j += 8) add(phase + 2 * Math.PI * j / lamda);
  }
});

group("planet_angles", () => {
  // latitudes and longitudes: deg * (pi/180)
  for (let d = -360; d <= 360; d++) add(d * (Math.PI / 180));
  for (let i = 0; i < 600; i++) add((uniform() * 360 - 180) * (Math.PI / 180));
});

const out = {
  description: "Math.sin and Math.cos computed by node; IEEE-754 bits as 16 hex digits",
  generator: "tests/data/make_trig_node.js",
  node: process.version,
  v8: process.versions.v8,
  groups,
  count: inputs.length,
  x: inputs.map(toHex),
  sin: inputs.map((x) => toHex(Math.sin(x))),
  cos: inputs.map((x) => toHex(Math.cos(x))),
};
process.stdout.write(JSON.stringify(out, null, 0) + "\n");
