// Documents validated by graphql-js 16 against validation-schema.graphql;
// the errors (messages and locations, in order) go to
// Tests/GraphQLTests/Fixtures/validation-cases.json for the Swift tests.
//
// usage: node make-validation-fixtures.js GRAPHQL_MODULE_PATH
'use strict';
const fs = require('fs');
const path = require('path');
const graphql = require(process.argv[2]);
const cases = require('./validation-cases.js');

const sdl = fs.readFileSync(path.join(__dirname, 'validation-schema.graphql'), 'utf8');
const schema = graphql.buildSchema(sdl);
const schemaErrors = graphql.validateSchema(schema);
if (schemaErrors.length) throw new Error(schemaErrors.map((e) => e.message).join('\n'));

const fixtures = cases.map((query) => {
  const errors = graphql.validate(schema, graphql.parse(query));
  return { query, errors: errors.map((e) => ({ message: e.message, locations: e.locations || [] })) };
});
const fixturesDir = path.join(__dirname, '../../Tests/GraphQLTests/Fixtures');
fs.writeFileSync(path.join(fixturesDir, 'validation-cases.json'), '[\n' + fixtures.map((f) => JSON.stringify(f)).join(',\n') + '\n]\n');
const failing = fixtures.filter((f) => f.errors.length).length;
console.log(`wrote ${fixtures.length} cases (${failing} with errors)`);
