// graphql-js's side of `huddle-bench parse`: the same files, timed the same way.
// usage: node parse.js GRAPHQL_MODULE_PATH FILE...
'use strict';
const fs = require('fs');
const path = require('path');
const { parse } = require(process.argv[2]);
const { median, report } = require('./median.js');

for (const file of process.argv.slice(3)) {
  const text = fs.readFileSync(file, 'utf8');
  report(path.basename(file), Buffer.byteLength(text), median(() => parse(text)));
}
