// buildClientSchema cases answered by graphql-js 16: for each SDL document of
// schema-cases.js that makes a valid schema, and for schemas generated from
// a fixed seed with every kind of type and what introspection carries of
// them, graphql-js's introspection of it (every option its version has) and
// printSchema(buildClientSchema(that)).
// Written to Tests/GraphQLTests/Fixtures/client-schema-cases.json.
//
// usage: node make-client-schema-fixtures.js GRAPHQL_MODULE_PATH
'use strict';
const fs = require('fs');
const path = require('path');
const graphql = require(process.argv[2]);
const cases = require('./schema-cases.js');

function generated(count) {
  let seed = 20261125;
  const next = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return Math.floor(seed / 65536) % n;
  };
  const descriptions = ['', '', '"plain" ', '"""block\n  with "quotes" and \\ and é"""\n', '"tab\\tline\\nbreak \\u00e9" '];
  const scalarsOut = ['Int', 'String', 'Boolean', 'Float', 'ID', 'Date'];
  const scalarsIn = ['Int', 'String', 'Boolean', 'Float', 'ID', 'Date', 'Color', 'Filter'];
  const defaults = {
    Int: ['0', '-7'],
    String: ['"x"', '"say \\"hi\\""'],
    Boolean: ['true'],
    Float: ['1.5'],
    ID: ['"a1"'],
    Date: ['"2026-01-01"'],
    Color: ['RED'],
    Filter: ['{ a: 1, tags: ["t"] }'],
  };
  const wrap = (t) => [t, t + '!', '[' + t + ']', '[' + t + '!]!'][next(4)];
  const deprecated = () => ['', '', ' @deprecated', ' @deprecated(reason: "use b")'][next(4)];
  const out = [];
  for (let i = 0; i < count; i++) {
    const d = () => descriptions[next(descriptions.length)];
    const arg = (name) => {
      const type = scalarsIn[next(scalarsIn.length)];
      const required = next(3) === 0;
      const value = !required && next(2) ? ' = ' + defaults[type][next(defaults[type].length)] : '';
      return `${d()}${name}: ${type}${required ? '!' : ''}${value}${required ? '' : deprecated()}`;
    };
    const field = (name, types) => {
      const args = next(3) === 0 ? '(' + ['a0', 'a1'].slice(0, 1 + next(2)).map(arg).join(', ') + ')' : '';
      return `  ${d()}${name}${args}: ${wrap(types[next(types.length)])}${deprecated()}`;
    };
    const outTypes = scalarsOut.concat(['A', 'B', 'Node', 'Thing', 'Color']);
    let sdl = `${d()}schema { query: Query${next(2) ? ' mutation: B' : ''} }\n`;
    sdl += `${d()}scalar Date${next(2) ? ' @specifiedBy(url: "https://example.com/date")' : ''}\n`;
    sdl += `${d()}enum Color { ${d()}RED GREEN${deprecated()} BLUE }\n`;
    sdl += `${d()}input Filter { a: Int = 3 tags: [String!] nested: Filter c: Color = BLUE${next(2) ? ' old: Int @deprecated' : ''} }\n`;
    sdl += `${d()}interface Node { id: ID! }\n`;
    sdl += `${d()}interface Named implements Node { id: ID! name: String }\n`;
    for (const name of ['Query', 'A', 'B']) {
      const implementsPart = name === 'Query' ? '' : ' implements Named & Node';
      const fields = name === 'Query' ? [] : ['  id: ID!', '  name: String'];
      const count = 1 + next(3);
      for (let j = 0; j < count; j++) fields.push(field('f' + j, outTypes));
      sdl += `${d()}type ${name}${implementsPart} {\n${fields.join('\n')}\n}\n`;
    }
    sdl += `${d()}union Thing = A | B\n`;
    sdl += `${d()}directive @tag(${arg('name')}) ${next(2) ? 'repeatable ' : ''}on FIELD_DEFINITION | OBJECT | ARGUMENT_DEFINITION\n`;
    out.push(sdl);
  }
  return out;
}

const options = {
  descriptions: true,
  specifiedByUrl: true,
  directiveIsRepeatable: true,
  schemaDescription: true,
  inputValueDeprecation: true,
};
const fixtures = [];
for (const sdl of cases.concat(generated(60))) {
  let schema;
  try {
    schema = graphql.buildSchema(sdl);
  } catch (error) {
    continue;
  }
  if (graphql.validateSchema(schema).length > 0) continue;
  const introspection = graphql.introspectionFromSchema(schema, options);
  fixtures.push({ sdl, introspection, printed: graphql.printSchema(graphql.buildClientSchema(introspection)) });
}
const out = path.join(__dirname, '../../Tests/GraphQLTests/Fixtures/client-schema-cases.json');
fs.writeFileSync(out, '[\n' + fixtures.map((f) => JSON.stringify(f)).join(',\n') + '\n]\n');
console.log(`wrote ${fixtures.length} cases to ${path.relative(process.cwd(), out)}`);
