// Execution cases answered by graphql-js 16's graphql({schema, source,
// rootValue, variableValues, operationName}) with its default resolvers,
// written to Tests/GraphQLTests/Fixtures/execution-cases.json: the response
// JSON for each. The Swift tests run the same cases through parse, validate
// and execute, and compare the JSON byte for byte.
//
// usage: node make-execution-fixtures.js GRAPHQL_MODULE_PATH
'use strict';
const fs = require('fs');
const path = require('path');
const graphql = require(process.argv[2]);
const cases = require('./execution-cases.js');

async function main() {
  const fixtures = [];
  for (const c of cases) {
    const schema = graphql.buildSchema(c.schema);
    const result = await graphql.graphql({
      schema, source: c.query, rootValue: c.data, variableValues: c.variables, operationName: c.operationName,
    });
    fixtures.push({ ...c, data: JSON.stringify(c.data ?? {}), variables: JSON.stringify(c.variables ?? {}), response: JSON.stringify(result) });
  }
  const out = path.join(__dirname, '../../Tests/GraphQLTests/Fixtures/execution-cases.json');
  fs.writeFileSync(out, '[\n' + fixtures.map((f) => JSON.stringify(f)).join(',\n') + '\n]\n');
  console.log(`wrote ${fixtures.length} cases`);
}
main();
