// Runs every case in parse-cases.js through graphql-js 16 and writes what it
// answers (the printed document, or the syntax error with its location) to
// Tests/GraphQLTests/Fixtures/parse-cases.json. The Swift tests then hold
// our parser and printer to exactly those answers, without needing node.
//
// usage: node make-parse-fixtures.js GRAPHQL_MODULE_PATH
'use strict';
const path = require('path');
const fs = require('fs');
const graphql = require(process.argv[2]);
const cases = require('./parse-cases.js');

function run(testCase) {
  const entry = typeof testCase === 'string' ? { source: testCase } : { ...testCase };
  const options = {};
  if (entry.maxTokens !== undefined) options.maxTokens = entry.maxTokens;
  try {
    const document = graphql.parse(entry.source, options);
    entry.printed = graphql.print(document);
  } catch (error) {
    if (!(error instanceof graphql.GraphQLError)) throw error;
    entry.error = { message: error.message, locations: error.locations };
  }
  return entry;
}

const fixtures = cases.map(run);
for (const name of ['kitchen-sink.graphql', 'schema-kitchen-sink.graphql']) {
  const file = path.join(__dirname, '../../Tests/GraphQLTests/Fixtures', name);
  fixtures.push({ name, ...run(fs.readFileSync(file, 'utf8')) });
}
const out = path.join(__dirname, '../../Tests/GraphQLTests/Fixtures/parse-cases.json');
fs.writeFileSync(out, '[\n' + fixtures.map((f) => JSON.stringify(f)).join(',\n') + '\n]\n');
console.log(`wrote ${fixtures.length} cases to ${path.relative(process.cwd(), out)}`);
