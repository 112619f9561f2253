// Inputs for make-execution-fixtures.js: schema, root value, query,
// variables and operation name, covering coercion, completion, errors and
// null propagation, abstract types and introspection.
'use strict';
const fs = require('fs');
const path = require('path');

const users = `
  type Query { me: User users: [User!]! optionalUsers: [User] node(id: ID!): Node nodes: [Node!] search: [Result] count: Int
    echo(text: String, times: Int = 1, list: [Int], input: Filter, color: Color): String greeting(name: String! = "you"): String }
  type Mutation { first: Int second: Int }
  interface Node { id: ID! }
  type User implements Node { id: ID! name: String! nick: String friends: [User] score: Float active: Boolean color: Color tags: [String!] }
  type Post implements Node { id: ID! title: String }
  union Result = User | Post
  enum Color { RED GREEN BLUE }
  input Filter { text: String limit: Int = 10 }
  scalar JSON
`;
const data = {
  me: { id: 1, name: 'Ana', nick: null, friends: [{ id: '2', name: 'Bo' }, null, { id: 3, name: 'Cy', friends: [] }], score: '3.5', active: 1, color: 'GREEN', tags: ['a', 'b'] },
  users: [{ id: 10, name: 'Di' }, { id: 11, name: 'Ed' }],
  optionalUsers: [{ id: 12, name: null }, { id: 13, name: 'Flo' }],
  node: { __typename: 'Post', id: 'p1', title: 'Hello' },
  nodes: [{ __typename: 'User', id: 'u1', name: 'Gus' }, { __typename: 'Post', id: 'p2', title: 'World' }],
  search: [{ __typename: 'User', id: 'u3', name: 'Hal' }, { __typename: 'Post', id: 'p3', title: 'T' }, null],
  count: '12',
  echo: 'echoed', greeting: 'hi', first: 1, second: 2,
};
const bestSchema = 'type Query { me: User, other: User, list: [User] } type User { id: ID!, name: String, email: String, best: User }';
const bestData = {
  me: { id: '1', name: 'Ann', email: 'ann@x', best: { id: '2', name: 'Bo', email: 'bo@x', best: { id: '5', name: 'Ed', best: { id: '6', best: { id: '7', best: { id: '8' } } } } } },
  other: { id: '3', name: 'Cy', email: 'cy@x', best: { id: '4', name: 'Di', email: 'di@x', best: { id: '9', name: 'Flo', best: { id: '10' } } } },
  list: [{ id: '11', name: 'Gus' }, { id: '12', name: 'Hal' }],
};
const kitchenSchema = fs.readFileSync(path.join(__dirname, 'validation-schema.graphql'), 'utf8');
const fullIntrospection = `query IntrospectionQuery {
  __schema {
    description queryType { name } mutationType { name } subscriptionType { name }
    types { ...FullType }
    directives { name description isRepeatable locations args(includeDeprecated: true) { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind name description specifiedByURL
  fields(includeDeprecated: true) { name description args(includeDeprecated: true) { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields(includeDeprecated: true) { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue isDeprecated deprecationReason }
fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }`;

module.exports = [
  { schema: users, data, query: '{ me { id name nick score active color tags __typename } count }' },
  { schema: users, data, query: '{ me { friends { id name friends { name } } } }' },
  { schema: users, data, query: '{ users { id name } optionalUsers { id name } }' },
  { schema: users, data, query: '{ optionalUsers { name } me { name } }' },
  { schema: users, data, query: '{ node(id: "x") { id __typename ... on Post { title } ... on User { name } } }' },
  { schema: users, data, query: '{ nodes { id ... on User { name } ... on Post { title } } search { __typename ... on User { name } ... on Post { title } } }' },
  { schema: users, data: { ...data, node: { id: 'x' } }, query: '{ node(id: "x") { id } }' },
  { schema: users, data: { ...data, node: { __typename: 'Nope', id: 'x' } }, query: '{ node(id: "x") { id } }' },
  { schema: users, data: { ...data, node: { __typename: 'Color', id: 'x' } }, query: '{ node(id: "x") { id } }' },
  { schema: users, data: { ...data, search: [{ __typename: 'Post' }, { __typename: 'Query' }] }, query: '{ search { __typename } }' },
  { schema: users, data: { ...data, me: { id: 1, name: 'A', score: 'abc', active: 'yes', color: 'PINK', tags: 'one' } }, query: '{ me { score active color tags } }' },
  { schema: users, data: { ...data, me: { id: 1.5, name: 7, score: true, active: 0, friends: 'none' } }, query: '{ me { id name score active friends { id } } }' },
  { schema: users, data: { ...data, count: 2147483648 }, query: '{ count }' },
  { schema: users, data: { ...data, count: 1.5 }, query: '{ count }' },
  { schema: users, data: { ...data, count: true }, query: '{ count }' },
  { schema: users, data: { ...data, users: [{ id: 1, name: 'A' }, { id: 2 }] }, query: '{ users { id name } me { name } }' },
  { schema: users, data: { ...data, users: null }, query: '{ count users { id } }' },
  { schema: users, data: { ...data, me: { id: 1, name: 'A', tags: ['x', null] } }, query: '{ me { tags } }' },
  { schema: users, data, query: 'query ($skip: Boolean!, $inc: Boolean = false) { me { name @skip(if: $skip) nick @include(if: $inc) a: id b: id @skip(if: true) } }', variables: { skip: true } },
  { schema: users, data, query: 'query Q($t: String, $n: Int, $l: [Int], $f: Filter, $c: Color) { echo(text: $t, times: $n, list: $l, input: $f, color: $c) }', variables: { t: 'x', n: 2, l: 3, f: { text: 'y' }, c: 'RED' } },
  { schema: users, data, query: 'query Q($n: Int!) { count }', variables: {} },
  { schema: users, data, query: 'query Q($n: Int, $c: Color, $f: Filter) { count }', variables: { n: 'x', c: 'PINK', f: { limit: 'x', extra: 1 } } },
  { schema: users, data, query: 'query A { count } query B { me { name } }' },
  { schema: users, data, query: 'query A { count } query B { me { name } }', operationName: 'B' },
  { schema: users, data, query: 'query A { count } query B { me { name } }', operationName: 'C' },
  { schema: users, data, query: 'query A { count }', operationName: 'A' },
  { schema: users, data, query: 'mutation { second first again: first }' },
  { schema: users, data, query: '{ me { ...Bits friends { ...Bits } } } fragment Bits on User { id name }' },
  { schema: users, data, query: '{ me { name } me { id } alias: me { nick } }' },
  { schema: users, data, query: '{ me { name nonexistent } }' },
  { schema: users, data, query: '{ me { name }' },
  { schema: users, data, query: '{ __typename me { __typename } }' },
  { schema: users, data, query: '{ __type(name: "User") { name kind fields { name type { name kind ofType { name kind ofType { name } } } } interfaces { name } } }' },
  { schema: users, data, query: '{ __type(name: "Nope") { name } }' },
  { schema: users, data, query: '{ __schema { queryType { name } mutationType { name } subscriptionType { name } types { name kind } } }' },
  { schema: users, data, query: '{ a: __type(name: "Result") { possibleTypes { name } } b: __type(name: "Node") { possibleTypes { name } } c: __type(name: "Filter") { inputFields { name defaultValue } } d: __type(name: "Color") { enumValues { name } } }' },
  { schema: users, data, query: fullIntrospection },
  { schema: kitchenSchema, data: {}, query: fullIntrospection },
  { schema: `"""Described schema""" schema { query: Q } type Q { a(x: Int = 1 @deprecated(reason: "old"), y: [String!] = ["a"], z: In = {a: 2}): Int @deprecated b: E } enum E { A B @deprecated(reason: "use A") } input In { a: Int = 1 b: Float = 2 old: String @deprecated } scalar S @specifiedBy(url: "https://example.com/s")`,
    data: {}, query: fullIntrospection },
  // Introspection as tools write it by hand: deprecated members left out
  // unless asked for, `__typename` and aliases inside introspection objects,
  // fields merged and skipped, wrapped types several levels deep.
  { schema: `schema { query: Q } type Q { a(x: Int = 1 @deprecated(reason: "old"), y: [[String!]!] = [["a"]]): [[Int!]]! @deprecated b: E c: I } interface I { id: ID! } type T implements I { id: ID! } enum E { A B @deprecated(reason: "use A") } input In { a: Int = 1 old: String @deprecated } directive @d(r: Int! = 2, old: Int @deprecated) repeatable on FIELD | QUERY`,
    data: {}, query: `query ($no: Boolean = false) {
      q: __type(name: "Q") { __typename kind k: kind fields { name n: name __typename args { name defaultValue type { kind ofType { kind ofType { kind ofType { kind ofType { kind name } } } } } } type { name kind ofType { kind ofType { kind ofType { kind ofType { name } } } } } isDeprecated } all: fields(includeDeprecated: true) { name deprecationReason type { kind ofType { kind ofType { kind ofType { kind ofType { kind name } } } } } args(includeDeprecated: true) { name isDeprecated deprecationReason defaultValue type { kind ofType { kind ofType { kind ofType { kind name } } } } } } }
      e: __type(name: "E") { enumValues { name } all: enumValues(includeDeprecated: true) { __typename name isDeprecated deprecationReason } fields { name } inputFields { name } interfaces { name } possibleTypes { name } specifiedByURL }
      i: __type(name: "In") { inputFields { name } all: inputFields(includeDeprecated: true) { name type { name } } enumValues { name } ... on __Type { name @skip(if: $no) description @include(if: $no) } }
      iface: __type(name: "I") { possibleTypes { name __typename } interfaces { name } fields { name } }
      t: __type(name: "T") { interfaces { name kind } possibleTypes { name } }
      __schema { __typename directives { name __typename isRepeatable locations args { name defaultValue } all: args(includeDeprecated: true) { name } } queryType { name name } }
    }` },
  // A fragment spread under two fields: what one adds beside the fragment
  // stays under that one (Tests/GraphQLTests/Fixtures/conformance/fragment-merge), and a
  // fragment spread at two depths recurses no deeper than asked.
  { schema: bestSchema, data: bestData, query: 'fragment Best on User { best { name } } query Q { me { ...Best best { email } } other { ...Best } }' },
  { schema: bestSchema, data: bestData, query: '{ other { ...Best } me { ...Best best { email } } } fragment Best on User { best { name } }' },
  { schema: bestSchema, data: bestData, query: '{ me { ...F best { ...F } } } fragment F on User { id best { id } }' },
  { schema: bestSchema, data: bestData, query: '{ me { ...F best { best { name } } } other { ...F } } fragment F on User { id best { id best { id } } }' },
  // @skip/@include whose `if` is a nullable variable given null, or a
  // variable given nothing: below the root a field error, at the root the
  // data is null (Tests/GraphQLTests/Fixtures/conformance/skip-null).
  { schema: bestSchema, data: bestData, query: 'query Q($hide: Boolean = false) { me { id name @skip(if: $hide) } }', variables: { hide: null } },
  { schema: bestSchema, data: bestData, query: 'query Q($show: Boolean = true) { me { id ... @include(if: $show) { name } } other { id } }', variables: { show: null } },
  { schema: bestSchema, data: bestData, query: 'query Q($hide: Boolean = false) { other { id } me @skip(if: $hide) { id } }', variables: { hide: null } },
  { schema: bestSchema, data: bestData, query: 'query Q($hide: Boolean = false) { list { id ...F @skip(if: $hide) } } fragment F on User { name }', variables: { hide: null } },
  { schema: bestSchema, data: bestData, query: 'query Q($hide: Boolean = false) { me { id name @skip(if: $hide) @include(if: false) } }', variables: { hide: true } },
  { schema: bestSchema, data: bestData, query: 'query Q($hide: Boolean = false) { me { id name @include(if: false) @skip(if: $hide) } }', variables: { hide: null } },
  { schema: bestSchema, data: bestData, query: 'query Q($hide: Boolean = false) { me { id name @skip(if: $hide) } }', variables: {} },
  { schema: 'type Query { a: JSON } scalar JSON', data: { a: { x: [1, 'two', { three: null }] } }, query: '{ a }' },
];
