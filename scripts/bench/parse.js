// graphql-js's side of `huddle bench parse`: the same files, the same
// rounds and the same median, printed in the same format.
// usage: node parse.js GRAPHQL_MODULE_PATH FILE...
'use strict';
const fs = require('fs');
const path = require('path');
const { parse } = require(process.argv[2]);
const rounds = 15;
const roundSeconds = 0.2;

function time(iterations, body) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) body();
  return Number(process.hrtime.bigint() - start);
}

function median(body) {
  let iterations = 1;
  for (;;) {
    const elapsed = time(iterations, body);
    if (elapsed >= roundSeconds * 1e9) break;
    iterations = elapsed < 1e6 ? iterations * 10 : Math.floor(iterations * roundSeconds * 1e9 / elapsed) + 1;
  }
  const samples = [];
  for (let r = 0; r < rounds; r++) samples.push(time(iterations, body) / iterations);
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

for (const file of process.argv.slice(3)) {
  const text = fs.readFileSync(file, 'utf8');
  const bytes = Buffer.byteLength(text);
  const ns = median(() => parse(text));
  console.log(`${path.basename(file)}\t${bytes}\t${ns.toFixed(0)}\t${(bytes / ns * 1e9 / 1e6).toFixed(1)}`);
}
