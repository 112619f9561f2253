// graphql-js's side of `huddle bench validate` and `build-schema`: the same
// files, rounds and median, printed in the same format.
// usage: node validate.js GRAPHQL_MODULE_PATH validate SCHEMA FILE...
//        node validate.js GRAPHQL_MODULE_PATH build-schema FILE...
'use strict';
const fs = require('fs');
const path = require('path');
const graphql = require(process.argv[2]);
const rounds = 15;
const roundSeconds = 0.2;

function time(iterations, body) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) body();
  return Number(process.hrtime.bigint() - start);
}

function median(body) {
  // A run that takes seconds (graphql-js on the hostile shapes) is timed once.
  const first = time(1, body);
  if (first > 2e9) return first;
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

function report(name, bytes, ns) {
  console.log(`${name}\t${bytes}\t${ns.toFixed(0)}\t${(bytes / ns * 1e9 / 1e6).toFixed(1)}`);
}

const mode = process.argv[3];
if (mode === 'validate') {
  const schema = graphql.buildSchema(fs.readFileSync(process.argv[4], 'utf8'));
  for (const file of process.argv.slice(5)) {
    const text = fs.readFileSync(file, 'utf8');
    const document = graphql.parse(text);
    let errors = [];
    const ns = median(() => { errors = graphql.validate(schema, document); });
    report(path.basename(file) + (errors.length ? ` (${errors.length} errors)` : ''), Buffer.byteLength(text), ns);
  }
} else {
  for (const file of process.argv.slice(4)) {
    const text = fs.readFileSync(file, 'utf8');
    const ns = median(() => graphql.buildSchema(text));
    report(path.basename(file), Buffer.byteLength(text), ns);
  }
}
