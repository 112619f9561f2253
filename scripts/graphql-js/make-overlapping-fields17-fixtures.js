// Field Selection Merging against graphql-js 17 itself: seeded documents
// whose fields share response names across fragments that spread other
// fragments (chains, fragments shared by several selections), inline
// fragments on object types that exclude each other and on interfaces,
// aliases, differing arguments and return types, nested to three levels.
// Each comes with graphql-js 17's errors (messages and locations) from its
// full set of rules, written to
// Tests/GraphQLTests/Fixtures/graphql-js-17-overlapping-fields-cases.json for
// OverlappingFields17Tests. graphql-js 17 comes as a bundle of its sources
// (see make-generated-execution-fixtures.js for how to build one).
//
// usage: node make-overlapping-fields17-fixtures.js GRAPHQL17_BUNDLE [CASES] [FIRST_SEED]
'use strict';
const fs = require('fs');
const path = require('path');
const graphql = require(process.argv[2]);
const wanted = Number(process.argv[3] ?? 1000);
const firstSeed = Number(process.argv[4] ?? 1);

const schemaSDL = `
type Query { me: User node: Node pets: [Pet] search: [Result] }
interface Node { id: ID! }
interface Named { name: String }
type User implements Node & Named { id: ID! name: String nick: String age: Int friends(first: Int): [User] best(by: String): User pet: Pet tags: [String] }
type Pet implements Node & Named { id: ID! name: String kind: String age: Float friends(first: Int): [Pet] owner: User tags: [String!] }
union Result = User | Pet
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

// Each type's fields: the type they return (null for leaves) and their argument.
const fields = {
  Query: { me: ['User'], node: ['Node'], pets: ['Pet'], search: ['Result'] },
  User: {
    id: [null], name: [null], nick: [null], age: [null], tags: [null],
    friends: ['User', 'first'], best: ['User', 'by'], pet: ['Pet'],
  },
  Pet: { id: [null], name: [null], kind: [null], age: [null], tags: [null], friends: ['Pet', 'first'], owner: ['User'] },
  Node: { id: [null] },
  Named: { name: [null] },
  Result: {},
};
// The type conditions that may be spread within each type.
const within = {
  User: ['User', 'Node', 'Named'],
  Pet: ['Pet', 'Node', 'Named'],
  Node: ['User', 'Pet', 'Node', 'Named'],
  Named: ['User', 'Pet', 'Node', 'Named'],
  Result: ['User', 'Pet', 'Node', 'Named'],
};

function generate(seed) {
  const r = random(seed);
  // Fragments are made last to first, so each spreads only later ones: no cycles.
  const fragmentCount = r.int(7);
  const fragments = new Array(fragmentCount);
  const argument = (name) => {
    const value = name === 'first' ? r.pick(['1', '2', '1']) : r.pick(['"a"', '"b"', '"a"']);
    return r.chance(0.75) ? `(${name}: ${value})` : '';
  };
  const selections = (type, depth, after) => {
    const parts = [];
    const count = 1 + r.int(3);
    for (let i = 0; i < count; i++) {
      const kind = r.int(10);
      const spreadable = fragments
        .map((f, index) => (f && index > after && within[type]?.includes(f.on) ? f.name : null))
        .filter(Boolean);
      if (kind < 3 && spreadable.length) {
        parts.push(`...${r.pick(spreadable)}`);
      } else if (kind < 5 && depth < 3 && within[type]) {
        const on = r.chance(0.2) ? type : r.pick(within[type]);
        parts.push(`...${on === type ? '' : ` on ${on}`} ${selections(on, depth + 1, after)}`);
      } else {
        const names = Object.keys(fields[type]);
        if (!names.length) {
          parts.push('__typename');
          continue;
        }
        const name = r.pick(names);
        const [returns, argumentName] = fields[type][name];
        const alias = r.chance(0.2) ? `${r.pick(['x', 'y', 'name', 'age', 'friends'])}: ` : '';
        const args = argumentName ? argument(argumentName) : '';
        const inner = returns ? ' ' + (depth < 3 ? selections(returns, depth + 1, after) : '{ __typename }') : '';
        parts.push(`${alias}${name}${args}${inner}`);
      }
    }
    return `{ ${parts.join(' ')} }`;
  };
  for (let index = fragmentCount - 1; index >= 0; index--) {
    const on = r.pick(['User', 'User', 'Pet', 'Node', 'Named']);
    fragments[index] = { name: `F${index}`, on, text: '' };
    fragments[index].text = `fragment F${index} on ${on} ${selections(on, 1, index)}`;
  }
  let body = selections('Query', 0, -1);
  // A fragment no one spreads is spread where any fits, so that most documents are valid but for conflicts.
  const texts = [body, ...fragments.map((f) => f.text)].join(' ');
  const unused = fragments.filter((f) => !new RegExp(`\\.\\.\\.${f.name}\\b`).test(texts)).map((f) => `...${f.name}`);
  if (unused.length) body = `${body.slice(0, -1)}node { ${unused.join(' ')} } }`;
  return [`query Op ${body}`, ...fragments.map((f) => f.text)].join('\n');
}

const schema = graphql.buildSchema(schemaSDL);
const cases = [];
const seen = new Set();
let seed = firstSeed;
let conflicting = 0;
while (cases.length < wanted) {
  const query = generate(seed++);
  if (seen.has(query)) continue;
  seen.add(query);
  const found = graphql.validate(schema, graphql.parse(query));
  const errors = found.map((error) => ({ message: error.message, locations: error.locations ?? [] }));
  if (errors.some((error) => error.message.includes('conflict because'))) conflicting++;
  cases.push({ seed: seed - 1, query, errors: JSON.stringify(errors) });
}
const out = path.join(__dirname, '../../Tests/GraphQLTests/Fixtures/graphql-js-17-overlapping-fields-cases.json');
fs.writeFileSync(
  out,
  JSON.stringify({ schema: schemaSDL, graphql: graphql.version, cases }, null, 0).replace(/\{"seed"/g, '\n{"seed"') + '\n');
console.log(`wrote ${cases.length} cases (${conflicting} with conflicts) from seeds ${firstSeed} to ${seed - 1}`);
