// graphql-js's side of `huddle bench execute`: execute with default
// resolvers and JSON.stringify the result, same rounds and median.
// usage: node execute.js GRAPHQL_MODULE_PATH SCHEMA DATA|- DOCUMENT
'use strict';
const fs = require('fs');
const path = require('path');
const graphql = require(process.argv[2]);
const schema = graphql.buildSchema(fs.readFileSync(process.argv[3], 'utf8'));
const rootValue = process.argv[4] === '-' ? {} : JSON.parse(fs.readFileSync(process.argv[4], 'utf8'));
const document = graphql.parse(fs.readFileSync(process.argv[5], 'utf8'));
const rounds = 15;
const roundSeconds = 0.2;

function once() {
  return Buffer.byteLength(JSON.stringify(graphql.execute({ schema, document, rootValue })));
}
function time(iterations) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) once();
  return Number(process.hrtime.bigint() - start);
}
let iterations = 1;
for (;;) {
  const elapsed = time(iterations);
  if (elapsed >= roundSeconds * 1e9) break;
  iterations = elapsed < 1e6 ? iterations * 10 : Math.floor(iterations * roundSeconds * 1e9 / elapsed) + 1;
}
const samples = [];
for (let r = 0; r < rounds; r++) samples.push(time(iterations) / iterations);
samples.sort((a, b) => a - b);
const ns = samples[Math.floor(samples.length / 2)];
const bytes = once();
console.log(`${path.basename(process.argv[5])}\t${bytes}\t${ns.toFixed(0)}\t${(bytes / ns * 1e9 / 1e6).toFixed(1)}`);
