// Variable coercion cases answered by graphql-js 16's getVariableValues
// (the CoerceVariableValues step of execute), against validation-schema.graphql:
// the coerced values, or the request errors. Written to
// Tests/GraphQLTests/Fixtures/variables-cases.json.
//
// usage: node make-variables-fixtures.js GRAPHQL_MODULE_PATH
'use strict';
const fs = require('fs');
const path = require('path');
const graphqlPath = process.argv[2];
const graphql = require(graphqlPath);
const { getVariableValues } = require(path.join(graphqlPath, 'execution/values.js'));

const schema = graphql.buildSchema(fs.readFileSync(path.join(__dirname, 'validation-schema.graphql'), 'utf8'));
const D = 'query Q(';
const cases = [
  ['$a: Int', {}], ['$a: Int', { a: 1 }], ['$a: Int', { a: 1.0 }], ['$a: Int', { a: 1.5 }], ['$a: Int', { a: '1' }],
  ['$a: Int', { a: 2147483648 }], ['$a: Int', { a: -2147483649 }], ['$a: Int', { a: 1e20 }], ['$a: Int', { a: true }],
  ['$a: Int', { a: null }], ['$a: Int!', {}], ['$a: Int!', { a: null }], ['$a: Int! = 3', {}], ['$a: Int = 3', { a: null }],
  ['$a: Float', { a: 1 }], ['$a: Float', { a: 1.25 }], ['$a: Float', { a: '1.5' }], ['$a: Float', { a: [1] }],
  ['$a: String', { a: 'x' }], ['$a: String', { a: 1 }], ['$a: String', { a: { b: 1 } }], ['$a: String', { a: ['a', 'b'] }],
  ['$a: Boolean', { a: false }], ['$a: Boolean', { a: 0 }], ['$a: Boolean', { a: 'true' }],
  ['$a: ID', { a: 'x' }], ['$a: ID', { a: 12 }], ['$a: ID', { a: 1.5 }], ['$a: ID', { a: 1e21 }], ['$a: ID', { a: false }],
  ['$a: FurColor', { a: 'BROWN' }], ['$a: FurColor', { a: 'brown' }], ['$a: FurColor', { a: 'BRWN' }], ['$a: FurColor', { a: 1 }],
  ['$a: FurColor = TAN', {}], ['$a: [FurColor!]', { a: ['TAN', 'NOPE', null] }],
  ['$a: [Int]', { a: [1, 2, null] }], ['$a: [Int]', { a: 1 }], ['$a: [Int!]', { a: [1, null] }], ['$a: [Int!]!', { a: [] }],
  ['$a: [[Int]]', { a: [[1], 2, [[3]]] }], ['$a: [Int]', { a: [1, 'x', 2.5, true] }],
  ['$a: ComplexInput', { a: { requiredField: true } }],
  ['$a: ComplexInput', { a: { requiredField: true, intField: 4, nested: { requiredField: false, stringListField: 'one' } } }],
  ['$a: ComplexInput', { a: {} }], ['$a: ComplexInput', { a: { requiredField: true, unknown: 1, intFeld: 2 } }],
  ['$a: ComplexInput', { a: 'not an object' }], ['$a: ComplexInput', { a: [{ requiredField: true }] }],
  ['$a: ComplexInput', { a: { requiredField: null, nonNullField: null } }],
  ['$a: ComplexInput', { a: { requiredField: true, nested: { intField: 'x', nested: { requiredField: 1 } } } }],
  ['$a: ComplexInput = {requiredField: false, intField: 9}', {}],
  ['$a: JSON', { a: { any: [1, 'two', { three: 3 }], deep: { er: { est: [[[1]]] } } } }],
  ['$a: Dog', { a: {} }], ['$a: Missing', { a: 1 }],
  ['$a: Int, $b: String!, $c: FurColor', { a: 'x', c: 'NOPE' }],
  ['$a: [Int]', { a: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 'x'] }],
  ['$a: String', { a: [[[['deep']]], { a: { b: { c: 1 } } }, 'x'] }],
  ['$a: String', { a: 'line\nbreak "quoted" \u0001 é' }],
];
const fixtures = cases.map(([definitions, variables]) => {
  const document = graphql.parse(`${D}${definitions}) { dog { name } }`);
  const result = getVariableValues(schema, document.definitions[0].variableDefinitions, variables, { maxErrors: 50 });
  const entry = { definitions, variables: JSON.stringify(variables) };
  if (result.errors) entry.errors = result.errors.map((e) => ({ message: e.message, locations: e.locations || [] }));
  else entry.coerced = JSON.stringify(result.coerced);
  return entry;
});
const out = path.join(__dirname, '../../Tests/GraphQLTests/Fixtures/variables-cases.json');
fs.writeFileSync(out, '[\n' + fixtures.map((f) => JSON.stringify(f)).join(',\n') + '\n]\n');
console.log(`wrote ${fixtures.length} cases`);
