// Documents validated by graphql-js 16 with only its NoDeprecatedCustomRule
// (what an editor warns about), against the schema below; the warnings
// (messages and locations, in order) go to
// Tests/GraphQLTests/Fixtures/deprecation-cases.json for the Swift tests of
// NoDeprecatedUsageRule.
//
// usage: node make-deprecation-fixtures.js GRAPHQL_MODULE_PATH
'use strict';
const fs = require('fs');
const path = require('path');
const graphql = require(process.argv[2]);

const sdl = `
directive @tag(name: String, label: String @deprecated(reason: "Use name.")) on FIELD | QUERY
type Query {
  current: Int
  old: Int @deprecated(reason: "Use current.")
  quiet: Int @deprecated
  list(first: Int, limit: Int @deprecated(reason: "Use first."), order: Order, filter: Filter): [Item]
  item: Item
}
interface Named { name: String @deprecated(reason: "Use title.") title: String }
type Item implements Named { name: String @deprecated(reason: "Use title.") title: String size(unit: Unit = CM): Int }
enum Order { NEWEST OLDEST POPULAR @deprecated(reason: "Use NEWEST.") }
enum Unit { CM INCH @deprecated }
input Filter { text: String tag: String @deprecated(reason: "Use text.") order: Order nested: Filter }
`;
const cases = [
  '{ current }',
  '{ old }',
  '{ quiet }',
  '{ a: old b: old }',
  '{ list(limit: 1) { title } }',
  '{ list(first: 1, order: NEWEST) { title } }',
  '{ list(order: POPULAR) { title } }',
  '{ list(filter: { tag: "x" }) { title } }',
  '{ list(filter: { nested: { tag: "x", order: POPULAR } }) { title } }',
  '{ item { name title size(unit: INCH) } }',
  '{ item { ... on Named { name } } }',
  'query Q @tag(label: "x") { current @tag(name: "y", label: "z") }',
  'query Q($o: Order = POPULAR) { list(order: $o) { title } }',
  'query Q($f: Filter = { tag: "x" }) { list(filter: $f) { title } }',
  '{ unknown(limit: 1) old }',
  '{ list(order: [POPULAR]) { title } }',
  'fragment F on Item { name size(unit: INCH) } { item { ...F } }',
];
const schema = graphql.buildSchema(sdl);
const fixtures = cases.map((query) => {
  const errors = graphql.validate(schema, graphql.parse(query), [graphql.NoDeprecatedCustomRule]);
  return { query, errors: errors.map((e) => ({ message: e.message, locations: e.locations || [] })) };
});
const fixturesDir = path.join(__dirname, '../../Tests/GraphQLTests/Fixtures');
fs.writeFileSync(path.join(fixturesDir, 'deprecation-schema.graphql'), sdl.trimStart());
fs.writeFileSync(path.join(fixturesDir, 'deprecation-cases.json'), '[\n' + fixtures.map((f) => JSON.stringify(f)).join(',\n') + '\n]\n');
console.log(`wrote ${fixtures.length} cases (${fixtures.filter((f) => f.errors.length).length} with warnings)`);
