// Validation of @defer and @stream against graphql-js 17 itself: seeded
// documents that put the directives where the rules of incremental
// delivery forbid them and where they allow them (on root fields of
// mutations and subscriptions, in subscriptions at all, with labels that
// repeat or are not static, @stream on fields that are not lists, the same
// response key streamed two ways, the directives at the wrong locations,
// `if` given literals and variables), each with graphql-js 17's errors
// (messages and locations) from its full set of rules, written to
// Tests/GraphQLTests/Fixtures/graphql-js-17-incremental-validation-cases.json
// for IncrementalValidation17Tests. graphql-js 17 comes as a bundle of its
// sources (see make-generated-execution-fixtures.js for how to build one).
//
// usage: node make-incremental17-validation-fixtures.js GRAPHQL17_BUNDLE [CASES] [FIRST_SEED]
'use strict';
const fs = require('fs');
const path = require('path');
const graphql = require(process.argv[2]);
const wanted = Number(process.argv[3] ?? 800);
const firstSeed = Number(process.argv[4] ?? 1);

const schemaSDL = `
type Query { me: User users: [User!]! node: Node search: [Result!] }
type Mutation { act: User acts: [User!] }
type Subscription { watch: User watches: [User!] }
interface Node { id: ID! }
type User implements Node { id: ID! name: String friends: [User] best: User tags: [String] }
type Pet implements Node { id: ID! name: String }
union Result = User | Pet
directive @defer(if: Boolean! = true, label: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT
directive @stream(if: Boolean! = true, label: String, initialCount: Int! = 0) on FIELD
`;

function random(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (n) => Math.floor(next() * n),
    pick: (items) => items[Math.floor(next() * items.length)],
    chance: (p) => next() < p,
  };
}

const userFields = ['id', 'name', 'friends', 'best', 'tags'];
const lists = new Set(['users', 'search', 'friends', 'tags', 'acts', 'watches']);
const objects = { me: 'User', users: 'User', node: 'Node', search: 'Result', act: 'User', acts: 'User', watch: 'User', watches: 'User', friends: 'User', best: 'User' };

function generate(seed) {
  const r = random(seed);
  const operation = r.pick(['query', 'query', 'query', 'mutation', 'subscription']);
  const variables = new Set();
  const labels = [];
  const label = () => {
    const kind = r.int(10);
    if (kind === 0 && labels.length) return `, label: "${r.pick(labels)}"`; // a repeat
    if (kind === 1) {
      variables.add('l');
      return ', label: $l'; // not static
    }
    if (kind < 6) {
      const made = `L${labels.length}`;
      labels.push(made);
      return `, label: "${made}"`;
    }
    return '';
  };
  const condition = () => {
    const kind = r.int(5);
    if (kind === 0) return 'if: false';
    if (kind === 1) {
      variables.add('b');
      return 'if: $b';
    }
    return 'if: true';
  };
  const defer = () => `@defer(${condition()}${label()})`;
  const stream = () => `@stream(${condition()}${label()}, initialCount: ${r.int(3)})`;
  // A directive at a place it may or may not go.
  const onSpread = () => (r.chance(0.03) ? ` ${stream()}` : r.chance(0.5) ? ` ${defer()}` : '');
  const onField = (name) => {
    if (r.chance(0.02)) return ` ${defer()}`; // the wrong location
    if (lists.has(name) ? r.chance(0.4) : r.chance(0.04)) return ` ${stream()}`;
    return '';
  };
  const fragments = [];
  const selections = (type, depth, atRoot) => {
    const parts = [];
    const count = 1 + r.int(3);
    for (let i = 0; i < count; i++) {
      const kind = r.int(10);
      if (kind < 2 && depth < 3) {
        parts.push(`...${onSpread()} ${selections(type, depth + 1, atRoot)}`);
      } else if (kind < 3 && type !== 'Root' && depth < 3) {
        const name = `F${fragments.length}`;
        fragments.push({ name, text: '' });
        const on = type === 'Node' || type === 'Result' ? type : 'User';
        const index = fragments.length - 1;
        fragments[index].text = `fragment ${name} on ${on} ${selections(on, depth + 1, false)}`;
        parts.push(`...${name}${onSpread()}`);
      } else {
        const fields = type === 'Root'
          ? { query: ['me', 'users', 'node', 'search'], mutation: ['act', 'acts'], subscription: ['watch', 'watches'] }[operation]
          : type === 'User' ? userFields : type === 'Node' ? ['id'] : ['__typename'];
        const name = r.pick(fields);
        // The same response key twice, perhaps streamed two ways.
        const alias = r.chance(0.15) ? 'same: ' : '';
        const inner = objects[name] && depth < 3 ? ' ' + selections(objects[name], depth + 1, false) : objects[name] ? ' { __typename }' : '';
        parts.push(`${alias}${name}${onField(name)}${inner}`);
      }
    }
    return `{ ${parts.join(' ')} }`;
  };
  const body = selections('Root', 0, true);
  const declared = [...variables].sort().map((v) => (v === 'b' ? '$b: Boolean!' : '$l: String'));
  const header = `${operation} Op${declared.length ? `(${declared.join(', ')})` : ''} `;
  return [header + body, ...fragments.map((f) => f.text)].join('\n');
}

const schema = graphql.buildSchema(schemaSDL);
const cases = [];
const seen = new Set();
let seed = firstSeed;
let invalid = 0;
let crashed = 0;
while (cases.length < wanted) {
  const query = generate(seed++);
  if (seen.has(query)) continue;
  seen.add(query);
  let found;
  try {
    found = graphql.validate(schema, graphql.parse(query));
  } catch {
    // graphql-js 17.0.0-alpha's SingleFieldSubscriptionsRule collects a
    // subscription's fields without variables and throws on @defer(if: $b)
    // there: its own bug, so no reference to compare with.
    crashed++;
    continue;
  }
  const errors = found.map((error) => ({ message: error.message, locations: error.locations ?? [] }));
  if (errors.length) invalid++;
  cases.push({ seed: seed - 1, query, errors: JSON.stringify(errors) });
}
const out = path.join(__dirname, '../../Tests/GraphQLTests/Fixtures/graphql-js-17-incremental-validation-cases.json');
fs.writeFileSync(
  out,
  JSON.stringify({ schema: schemaSDL, graphql: graphql.version, cases }, null, 0).replace(/\{"seed"/g, '\n{"seed"') + '\n');
console.log(`wrote ${cases.length} cases (${invalid} invalid) from seeds ${firstSeed} to ${seed - 1}; graphql-js threw on ${crashed}`);
