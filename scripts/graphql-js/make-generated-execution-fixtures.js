// A differential corpus made from seeds: random operations over one schema
// and one cyclic-looking (but finite) JSON root value, written the way
// Relay and Apollo apps write them: named fragments spread under several
// fields, fragments spreading fragments, inline fragments on interfaces and
// unions, aliases that merge with plain fields, @skip/@include on literals
// and on variables given true, false, null or nothing. Each operation that
// graphql-js 16 finds valid is executed by it; its response goes to
// Tests/GraphQLTests/Fixtures/generated-execution-cases.json, which the
// Swift tests run through parse, validate and execute and compare byte for
// byte. The same seed always makes the same corpus.
//
// With `incremental`, the schema declares graphql-js 17's @defer and
// @stream and the operations use them (on fragments, and on list fields
// consistently per response key); graphql-js 16 takes them for directives
// it ignores, so its response is everything inlined: what Huddle's
// `execute` must give byte for byte, and what its incremental results must
// add up to (Tests/GraphQLTests/Fixtures/generated-incremental-cases.json).
//
// With `incremental17`, GRAPHQL_MODULE_PATH is a bundle of graphql-js 17
// (below) and the same operations are validated by its rules and run by its
// `experimentalExecuteIncrementally`: every result it gives, the initial one
// and each subsequent one, goes to
// Tests/GraphQLTests/Fixtures/graphql-js-17-incremental-cases.json, which
// IncrementalParity17Tests compares with Huddle's results (their union, not
// their split into results, which the RFC leaves to the server). No
// package manager has graphql-js 17; it is bundled from its repository
// (nothing of it is committed):
//
//   git clone https://github.com/graphql/graphql-js && cd graphql-js && git checkout v17.0.0-alpha.8
//   esbuild src/index.ts --bundle --platform=node --format=cjs --outfile=/tmp/graphql17.js   # Debian's esbuild
//   node scripts/graphql-js/make-generated-execution-fixtures.js /tmp/graphql17.js 1200 1 incremental17
//
// usage: node make-generated-execution-fixtures.js GRAPHQL_MODULE_PATH [CASES] [FIRST_SEED] [incremental|incremental17]
'use strict';
const fs = require('fs');
const path = require('path');
const graphql = require(process.argv[2]);
const wanted = Number(process.argv[3] ?? 400);
const firstSeed = Number(process.argv[4] ?? 1);
const mode = process.argv[5] ?? '';
const incremental = mode === 'incremental' || mode === 'incremental17';
const seventeen = mode === 'incremental17';

const schemaSDL = `
type Query { me: User other: User users: [User!]! node: Node nodes: [Node] search: [Result!] pet: Pet }
interface Node { id: ID! }
type User implements Node { id: ID! name: String email: String age: Int nick: String! best: User friends: [User] pets: [Pet!] }
type Pet implements Node { id: ID! name: String kind: Kind owner: User }
union Result = User | Pet
enum Kind { DOG CAT }
` + (incremental ? `directive @defer(if: Boolean! = true, label: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT
directive @stream(if: Boolean! = true, label: String, initialCount: Int! = 0) on FIELD
` : '');
const listFields = new Set(['users', 'nodes', 'search', 'friends', 'pets']);

// Five levels of `best` and `friends`, ending in null: a query that
// recurses one level too far shows it in its answer.
function user(id, depth) {
  const made = { __typename: 'User', id: String(id), name: `U${id}`, email: `u${id}@x`, age: 20 + id, nick: id % 4 === 3 ? null : `n${id}` };
  if (depth > 0) {
    made.best = user(id * 2, depth - 1);
    made.friends = [user(id * 2 + 1, depth - 1), null, user(id * 3, depth - 1)];
    made.pets = [{ __typename: 'Pet', id: `p${id}`, name: `P${id}`, kind: id % 2 ? 'CAT' : 'DOG', owner: { __typename: 'User', id: String(id), name: `U${id}`, nick: 'o' } }];
  } else {
    made.best = null;
  }
  return made;
}
const data = {
  me: user(1, 4),
  other: user(5, 3),
  users: [user(6, 2), user(7, 1)],
  node: { __typename: 'Pet', id: 'p0', name: 'Rex', kind: 'DOG', owner: user(8, 2) },
  nodes: [user(9, 2), null, { __typename: 'Pet', id: 'p9', name: 'Tom', kind: 'CAT', owner: null }],
  search: [user(10, 1), { __typename: 'Pet', id: 'p10', name: 'Kit', kind: 'CAT', owner: user(11, 1) }],
  pet: { __typename: 'Pet', id: 'p12', name: 'Bo', kind: 'DOG', owner: user(12, 3) },
};

function random(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  return { chance: (p) => next() < p, int, pick: (items) => items[int(items.length)] };
}

const fieldsOf = {
  User: [['id'], ['name'], ['email'], ['age'], ['nick'], ['best', 'User'], ['friends', 'User'], ['pets', 'Pet']],
  Pet: [['id'], ['name'], ['kind'], ['owner', 'User']],
  Node: [['id']],
  Result: [],
  Query: [['me', 'User'], ['other', 'User'], ['users', 'User'], ['node', 'Node'], ['nodes', 'Node'], ['search', 'Result'], ['pet', 'Pet']],
};
const conditionsOf = { User: ['User', 'Node', 'Result'], Pet: ['Pet', 'Node', 'Result'], Node: ['User', 'Pet', 'Node'], Result: ['User', 'Pet', 'Result'], Query: [] };
// Aliases from a small set, so that keys collide and fields merge.
const aliases = ['a', 'b', 'x'];

function generate(seed) {
  const r = random(seed);
  const used = new Set();
  const directive = () => {
    if (!r.chance(0.3)) return '';
    const name = r.pick(['skip', 'include']);
    const value = r.pick(['true', 'false', '$t', '$f', '$d', '$e', '$d', '$e']);
    if (value.startsWith('$')) used.add(value.slice(1));
    return ` @${name}(if: ${value})`;
  };
  // @defer on a fragment: plain, labelled (labels are unique), or turned off.
  let labels = 0;
  const deferral = () => {
    if (!incremental || !r.chance(0.4)) return '';
    return r.pick([' @defer', ` @defer(label: "L${labels++}")`, ' @defer(if: false)', ' @defer']);
  };
  // @stream, decided once per response key: fields merged under one key
  // must stream alike.
  const streams = new Map();
  const streaming = (key, name) => {
    if (!incremental || !listFields.has(name)) return '';
    if (!streams.has(key)) streams.set(key, r.chance(0.5) ? ` @stream(initialCount: ${r.int(3)})` : '');
    return streams.get(key);
  };
  const fragments = [];
  const selectionSet = (type, depth, spreadable) => {
    const parts = [];
    const count = 1 + r.int(depth > 2 ? 2 : 4);
    for (let i = 0; i < count; i++) {
      const kind = r.int(10);
      const candidates = spreadable.filter((f) => conditionsOf[type].includes(f.on) || f.on === type);
      if (kind < 2 && candidates.length) {
        parts.push(`...${r.pick(candidates).name}${directive()}${deferral()}`);
      } else if (kind < 3 && conditionsOf[type].length && depth < 4) {
        const on = r.chance(0.3) ? null : r.pick(conditionsOf[type]);
        parts.push(`...${on ? ` on ${on}` : ''}${directive()}${deferral()} ${selectionSet(on ?? type, depth + 1, spreadable)}`);
      } else if (fieldsOf[type].length) {
        const [name, inner] = r.pick(fieldsOf[type]);
        if (inner && depth >= 4) { parts.push('__typename'); continue; }
        const alias = r.chance(0.2) ? r.pick(aliases) : '';
        const stream = streaming(alias || name, name);
        parts.push(`${alias ? alias + ': ' : ''}${name}${directive()}${stream}${inner ? ' ' + selectionSet(inner, depth + 1, spreadable) : ''}`);
      } else {
        parts.push('__typename');
      }
    }
    return `{ ${parts.join(' ')} }`;
  };
  const fragmentCount = r.int(4);
  for (let i = 0; i < fragmentCount; i++) {
    const on = r.pick(['User', 'User', 'Pet', 'Node', 'Result']);
    const name = `F${i}`;
    // A fragment spreads only those defined before it: no cycles.
    fragments.push({ name, on, text: `fragment ${name} on ${on} ${selectionSet(on, 1, fragments.slice())}` });
  }
  const body = selectionSet('Query', 0, fragments);
  const declarations = { t: '$t: Boolean!', f: '$f: Boolean!', d: '$d: Boolean = false', e: '$e: Boolean = true' };
  const variableList = [...used].sort().map((v) => declarations[v]);
  const header = variableList.length ? `query Q(${variableList.join(', ')}) ` : '';
  const query = [header + body, ...fragments.map((f) => f.text)].join('\n');
  const variables = {};
  if (used.has('t')) variables.t = true;
  if (used.has('f')) variables.f = false;
  // $d and $e: given null (an error wherever they reach `if`), a value, or nothing (their default).
  for (const v of ['d', 'e']) {
    const choice = r.int(4);
    if (!used.has(v) || choice === 0) continue;
    // Not null with @defer: graphql-js 16 passes over a spread of a fragment
    // already collected before reading its @skip, but an earlier graphql-js
    // 17 alpha collected a deferred spread again, where an `if` of null is
    // an error that graphql-js 16 never reads (17.0.0-alpha.8 passes over it
    // too; the corpora keep the seeds they were made with).
    variables[v] = incremental && choice === 1 ? true : [null, null, true, false][choice];
  }
  return { query, variables };
}

/// graphql-js 17's results of one operation: the initial result and each subsequent one.
async function incrementalResults(schema, document, variables) {
  const outcome = await graphql.experimentalExecuteIncrementally({ schema, document, rootValue: data, variableValues: variables });
  if (!('initialResult' in outcome)) return [outcome];
  const results = [outcome.initialResult];
  for await (const next of outcome.subsequentResults) results.push(next);
  return results;
}

async function main() {
  const schema = graphql.buildSchema(schemaSDL);
  const cases = [];
  let seed = firstSeed;
  let tried = 0;
  while (cases.length < wanted && tried < wanted * 20) {
    tried++;
    const { query, variables } = generate(seed++);
    const document = graphql.parse(query);
    if (graphql.validate(schema, document).length) continue;
    if (seventeen) {
      const results = await incrementalResults(schema, document, variables);
      cases.push({ seed: seed - 1, query, variables: JSON.stringify(variables), results: JSON.stringify(results) });
      continue;
    }
    const result = await graphql.execute({ schema, document, rootValue: data, variableValues: variables });
    cases.push({ seed: seed - 1, query, variables: JSON.stringify(variables), response: JSON.stringify(result) });
  }
  const name = seventeen
    ? 'graphql-js-17-incremental-cases.json'
    : incremental ? 'generated-incremental-cases.json' : 'generated-execution-cases.json';
  const out = path.join(__dirname, '../../Tests/GraphQLTests/Fixtures/' + name);
  const corpus = { schema: schemaSDL, data: JSON.stringify(data), ...(seventeen ? { graphql: graphql.version } : {}), cases };
  fs.writeFileSync(out, JSON.stringify(corpus, null, 0).replace(/\{"seed"/g, '\n{"seed"') + '\n');
  console.log(`wrote ${cases.length} cases from ${tried} seeds`);
}
main();
