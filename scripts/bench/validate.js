// graphql-js's side of `huddle-bench validate` and `build-schema`: the same
// files, timed the same way.
// usage: node validate.js GRAPHQL_MODULE_PATH validate SCHEMA FILE...
//        node validate.js GRAPHQL_MODULE_PATH build-schema FILE...
'use strict';
const fs = require('fs');
const path = require('path');
const graphql = require(process.argv[2]);
const { median, report } = require('./median.js');

if (process.argv[3] === 'validate') {
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
    report(path.basename(file), Buffer.byteLength(text), median(() => graphql.buildSchema(text)));
  }
}
