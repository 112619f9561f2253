// Differential corpus: the kitchen-sink documents with random small edits
// (a character deleted, inserted, duplicated or swapped for another), each
// answered by graphql-js 16. A fixed seed keeps the corpus stable; run with
// another seed and count to search wider before committing new cases.
//
// usage: node make-mutation-fixtures.js GRAPHQL_MODULE_PATH [COUNT] [SEED]
'use strict';
const fs = require('fs');
const path = require('path');
const graphql = require(process.argv[2]);
const count = Number(process.argv[3] || 400);
let seed = Number(process.argv[4] || 20261121);

function random(bound) {
  // mulberry32
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (((t ^ (t >>> 14)) >>> 0) % bound);
}

const alphabet = [...'{}()[]:=@$!&|."\\#,\n\r\t aZ_09-+eE', '"""', '...', 'é', '😀', '\u0000', '\uFEFF', 'on', 'fragment', 'query', 'extend', 'type'];
const fixtures = path.join(__dirname, '../../Tests/GraphQLTests/Fixtures');
const bases = ['kitchen-sink.graphql', 'schema-kitchen-sink.graphql'].map((name) =>
  [...fs.readFileSync(path.join(fixtures, name), 'utf8')]);

const cases = [];
// Each case is stored as its edits, [position, characters removed, text
// inserted] over the base's code points, which the Swift test replays.
for (let i = 0; i < count; i++) {
  const base = i % bases.length;
  const chars = [...bases[base]];
  const edits = [];
  for (let e = 0, n = 1 + random(3); e < n; e++) {
    const at = random(chars.length + 1);
    let edit;
    switch (random(4)) {
      case 0: edit = [at, 1, '']; break;
      case 1: edit = [at, 0, alphabet[random(alphabet.length)]]; break;
      case 2: edit = [at, 0, chars[at] ?? '']; break;
      default: edit = [at, 1, alphabet[random(alphabet.length)]];
    }
    chars.splice(edit[0], edit[1], ...[...edit[2]]);
    edits.push(edit);
  }
  const source = chars.join('');
  const entry = { base, edits };
  try {
    entry.printed = graphql.print(graphql.parse(source));
  } catch (error) {
    if (!(error instanceof graphql.GraphQLError)) throw error;
    entry.error = { message: error.message, locations: error.locations };
  }
  cases.push(entry);
}
const out = path.join(fixtures, 'mutation-cases.json');
fs.writeFileSync(out, '[\n' + cases.map((c) => JSON.stringify(c)).join(',\n') + '\n]\n');
const rejected = cases.filter((c) => c.error).length;
console.log(`wrote ${cases.length} cases (${rejected} rejected) to ${path.relative(process.cwd(), out)}`);
