// Field Selection Merging against graphql-js 17 on the documents a review
// of Huddle's set-based check found it wrong on (issue 43): a decision cut
// by the depth limit, graphql-js 17's walk out of its budget, graphql-js's
// weak memo (a non-exclusive comparison covers an exclusive one),
// fragment cycles, a budget spent on one fragment spread thousands of
// times, graphql-js 16's memo left behind for 17's walk, identical fields
// that conflict through what they spread, and @stream not declared. Each
// with graphql-js 17's errors (messages and locations), written to
// Tests/GraphQLTests/Fixtures/graphql-js-17-overlapping-fields-hostile-cases.json
// for OverlappingFieldsBoundsTests. graphql-js 17 comes as a bundle of its
// sources (see make-generated-execution-fixtures.js for how to build one).
//
// usage: node make-overlapping-fields17-hostile-fixtures.js GRAPHQL17_BUNDLE
'use strict';
const fs = require('fs');
const path = require('path');
const graphql = require(process.argv[2]);

const chainOfT = 'type Query { a: T } type T { a: T x: Int y: Int }';
const cases = [];

// A conflict 295 levels down, met after other sets have gone past the depth limit.
{
  const k = 10, length = 295;
  let text = 'query X { a { ...C1 } a { ...C1 } }\n';
  for (let i = 1; i < k; i++) text += `fragment C${i} on T { a { ...C${i + 1} } a { ...C${i + 1} } }\n`;
  text += `fragment C${k} on T { a { ...M } a { ...M } }\nfragment M on T { a { ...P1 } a { ...Q1 } }\n`;
  for (let j = 1; j < length; j++) text += `fragment P${j} on T { a { ...P${j + 1} } }\nfragment Q${j} on T { a { ...Q${j + 1} } }\n`;
  text += `fragment P${length} on T { x }\nfragment Q${length} on T { x: y }\n`;
  cases.push({ name: 'a conflict past sets cut at the depth limit', schema: chainOfT, query: text });
}
// 700 sibling fragments: graphql-js 17's walk runs out of its budget.
{
  const n = 700;
  let text = `query X { a { z: y ${Array.from({ length: n }, (_, i) => `...F${i}`).join(' ')} } }\nfragment F0 on T { z: x }\n`;
  for (let i = 1; i < n; i++) text += `fragment F${i} on T { x }\n`;
  text += 'query Y { a { ...B } }\nfragment B on T { x x: y }\n';
  cases.push({ name: 'the walk out of its budget', schema: chainOfT, query: text });
}
cases.push({
  name: 'a non-exclusive comparison covers an exclusive one',
  schema: 'type Query { n: Node } interface Node { id: ID! k: Node ks: [Node] } type U implements Node { id: ID! k: Node ks: [Node] } type P implements Node { id: ID! k: Node ks: [Node] }',
  query: 'query { n { k { ...F } k { ks { ...F } } } m: n { ... on U { ks { ...F } } ...F } }\nfragment F on Node { u: k { id } ... on P { ks { u: id } } }',
});
cases.push({
  name: 'fragments in a cycle',
  schema: 'type Query { t: T } type T { k: T ks: [T] id: ID }',
  query: [
    'fragment F0 on T { ks { ...F4 ... { k { ...F2 } ...F1 } } ...F8 }',
    'fragment F1 on T { ...F3 ks { k { ks { ... { ...F3 } } ...F3 k { ...F8 } } } }',
    'fragment F2 on T { ks { ...F3 } }', 'fragment F3 on T { ...F0 }',
    'fragment F4 on T { k { ks { k { ...F1 } } } k { ...F8 } }', 'fragment F8 on T { ks { k { ks { k { ...F4 } } } } }',
  ].join('\n'),
});
// One fragment of 200 fields spread 2,500 times, then the conflict graphql-js 16's memo misses.
{
  let text = '';
  for (let i = 0; i < 2500; i++) text += `query Q${i} { a { ...Big } }\n`;
  text += 'query P1 { a { x: y ...A } }\nquery P2 { a { x: y ...A } }\nfragment A on T { ...B }\nfragment B on T { x }\n';
  text += `fragment Big on T { ${Array.from({ length: 200 }, (_, i) => `f${i}: x`).join(' ')} }\n`;
  cases.push({ name: 'a budget spent on one fragment spread 2,500 times', schema: chainOfT, query: text });
}
// Chains 305 deep (past the depth limit), then a conflict graphql-js 16's walk would have memoized away.
{
  const length = 305;
  let text = 'query X { a { ...P1 } a { ...Q1 } }\n';
  for (let j = 1; j < length; j++) text += `fragment P${j} on T { a { ...P${j + 1} } }\nfragment Q${j} on T { a { ...Q${j + 1} } }\n`;
  text += `fragment P${length} on T { ...F }\nfragment Q${length} on T { z: x }\nfragment F on T { x ...R }\nfragment R on T { x: y }\nquery S { a { ...R ...F } }\n`;
  cases.push({ name: "graphql-js 16's memo left for 17's walk", schema: chainOfT, query: text });
}
cases.push({
  name: 'identical fields conflicting through what they spread',
  schema: chainOfT,
  query: `{ a { ${Array(9).fill('a { x ...F }').join(' ')} } } fragment F on T { x: y }`,
});
cases.push({
  name: '@stream not declared',
  schema: 'type Query { t: T } type T { ks: [T] id: ID }',
  query: '{ t { ks @stream { id } ks { id } } }',
});

for (const testCase of cases) {
  const found = graphql.validate(graphql.buildSchema(testCase.schema), graphql.parse(testCase.query));
  testCase.errors = JSON.stringify(found.map((error) => ({ message: error.message, locations: error.locations ?? [] })));
}
const out = path.join(__dirname, '../../Tests/GraphQLTests/Fixtures/graphql-js-17-overlapping-fields-hostile-cases.json');
fs.writeFileSync(out, JSON.stringify({ graphql: graphql.version, cases }, null, 0).replace(/\{"name"/g, '\n{"name"') + '\n');
console.log(`wrote ${cases.length} cases`);
