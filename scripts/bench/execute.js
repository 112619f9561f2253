// graphql-js's side of `huddle-bench execute`: execute with default
// resolvers and JSON.stringify the result, timed the same way.
// usage: node execute.js GRAPHQL_MODULE_PATH SCHEMA DATA|- DOCUMENT
'use strict';
const fs = require('fs');
const path = require('path');
const graphql = require(process.argv[2]);
const { median, report } = require('./median.js');

const schema = graphql.buildSchema(fs.readFileSync(process.argv[3], 'utf8'));
const rootValue = process.argv[4] === '-' ? {} : JSON.parse(fs.readFileSync(process.argv[4], 'utf8'));
const document = graphql.parse(fs.readFileSync(process.argv[5], 'utf8'));
let bytes = 0;
const ns = median(() => { bytes = Buffer.byteLength(JSON.stringify(graphql.execute({ schema, document, rootValue }))); });
report(path.basename(process.argv[5]), bytes, ns);
