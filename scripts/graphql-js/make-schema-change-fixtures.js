// Schema change cases answered by graphql-js 16: pairs of schemas, the
// second made from the first by a few random edits of every kind that
// findBreakingChanges and findDangerousChanges know (types removed or of
// another kind, fields, arguments, defaults, enum values, union members,
// interfaces, input fields, directives), from a fixed seed, and what those
// two functions answer. Written to
// Tests/GraphQLTests/Fixtures/schema-change-cases.json.
//
// usage: node make-schema-change-fixtures.js GRAPHQL_MODULE_PATH
'use strict';
const fs = require('fs');
const path = require('path');
const graphql = require(process.argv[2]);

let seed = 7;
const next = (n) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return Math.floor(seed / 65536) % n;
};
const pick = (items) => items[next(items.length)];

function base() {
  return {
    scalars: [{ name: 'Date', description: null }, { name: 'Unused', description: null }],
    enums: [{ name: 'Color', description: null, values: ['RED', 'GREEN', 'BLUE'] }],
    inputs: [
      { name: 'Filter', description: null, fields: [
        { name: 'color', type: 'Color', default: 'RED' },
        { name: 'tags', type: '[String!]', default: null },
        { name: 'limit', type: 'Int!', default: null },
        { name: 'nested', type: 'Filter', default: null },
      ] },
    ],
    interfaces: [
      { name: 'Node', description: null, interfaces: [], fields: [{ name: 'id', type: 'ID!', args: [] }] },
      { name: 'Named', description: null, interfaces: ['Node'], fields: [{ name: 'id', type: 'ID!', args: [] }, { name: 'name', type: 'String', args: [] }] },
    ],
    objects: [
      { name: 'Query', description: null, interfaces: [], fields: [
        { name: 'node', type: 'Node', args: [{ name: 'id', type: 'ID!', default: null }] },
        { name: 'things', type: '[Thing!]!', args: [{ name: 'filter', type: 'Filter', default: '{limit: 10, color: BLUE}' }, { name: 'first', type: 'Int', default: '20' }] },
        { name: 'a', type: 'A', args: [] },
        { name: 'when', type: 'Date', args: [] },
      ] },
      { name: 'A', description: null, interfaces: ['Named', 'Node'], fields: [
        { name: 'id', type: 'ID!', args: [] }, { name: 'name', type: 'String', args: [] },
        { name: 'size', type: 'Int', args: [{ name: 'unit', type: 'String', default: '"cm"' }] },
        { name: 'colors', type: '[Color]', args: [] },
      ] },
      { name: 'B', description: null, interfaces: ['Named', 'Node'], fields: [
        { name: 'id', type: 'ID!', args: [] }, { name: 'name', type: 'String', args: [] },
        { name: 'friends', type: '[B!]', args: [{ name: 'first', type: 'Int', default: null }] },
      ] },
      { name: 'C', description: null, interfaces: ['Node'], fields: [{ name: 'id', type: 'ID!', args: [] }, { name: 'name', type: 'String', args: [] }] },
      { name: 'Orphan', description: null, interfaces: [], fields: [{ name: 'id', type: 'ID', args: [] }] },
    ],
    unions: [{ name: 'Thing', description: null, members: ['A', 'B'] }],
    directives: [
      { name: 'tag', description: null, args: [{ name: 'name', type: 'String', default: null }], repeatable: true, locations: ['FIELD_DEFINITION', 'OBJECT'] },
      { name: 'cached', description: null, args: [{ name: 'ttl', type: 'Int', default: '60' }], repeatable: false, locations: ['FIELD', 'QUERY'] },
    ],
  };
}

const namedOut = ['String', 'Int', 'Boolean', 'ID', 'Float', 'Date', 'Color', 'A', 'B', 'C', 'Node', 'Thing'];
const namedIn = ['String', 'Int', 'Boolean', 'ID', 'Float', 'Date', 'Color', 'Filter'];
const defaultsFor = { String: ['"x"', '"y"'], Int: ['0', '5'], Boolean: ['true', 'false'], ID: ['"1"'], Float: ['1.5', '2'], Date: ['"2026-01-01"'], Color: ['RED', 'GREEN'], Filter: ['{limit: 1}', '{color: RED, limit: 2}', '{limit: 2, color: RED}'] };

function retype(type, named) {
  switch (next(5)) {
    case 0: return type.endsWith('!') ? type.slice(0, -1) : type + '!';
    case 1: return type.startsWith('[') ? type.replace(/^\[(.*)\](!?)$/, '$1$2') : '[' + type + ']';
    case 2: return type.replace(/[A-Za-z]+/, pick(named));
    case 3: return type.startsWith('[') ? type.replace(/^\[(.*?)(!?)\]/, (m, inner, bang) => '[' + inner + (bang ? '' : '!') + ']') : type;
    default: return '[' + type + ']!';
  }
}

function anyDefault(type) {
  const name = type.replace(/[\[\]!]/g, '');
  return pick(defaultsFor[name] || ['null']);
}

function argEdit(args, named) {
  const which = next(5);
  if (which === 0 || args.length === 0) {
    const type = pick(named) + (next(2) ? '!' : '');
    args.push({ name: 'x' + next(100), type, default: next(2) ? anyDefault(type) : null });
  } else if (which === 1) {
    args.splice(next(args.length), 1);
  } else if (which === 2) {
    const arg = pick(args);
    arg.type = retype(arg.type, named);
  } else {
    const arg = pick(args);
    arg.default = next(3) === 0 ? null : anyDefault(arg.type);
  }
}

function edit(s) {
  const objectsAndInterfaces = s.objects.concat(s.interfaces);
  switch (next(14)) {
    case 0: { // a type removed
      const lists = [s.scalars, s.enums, s.inputs, s.unions, s.objects.slice(1).length ? s.objects : []].filter((l) => l.length);
      const list = pick(lists);
      const index = list === s.objects ? 1 + next(list.length - 1) : next(list.length);
      list.splice(index, 1);
      break;
    }
    case 1: { // a type of another kind
      if (s.scalars.length && next(2)) {
        const scalar = s.scalars.pop();
        s.enums.push({ name: scalar.name, description: null, values: ['TODAY'] });
      } else if (s.unions.length) {
        const union = s.unions.pop();
        s.objects.push({ name: union.name, description: null, interfaces: [], fields: [{ name: 'id', type: 'ID', args: [] }] });
      }
      break;
    }
    case 2: { const type = pick(objectsAndInterfaces); type.fields.push({ name: 'f' + next(100), type: pick(namedOut), args: [] }); break; }
    case 3: { const type = pick(objectsAndInterfaces); if (type.fields.length > 1) type.fields.splice(next(type.fields.length), 1); break; }
    case 4: { const field = pick(pick(objectsAndInterfaces).fields); field.type = retype(field.type, namedOut); break; }
    case 5: case 6: { const field = pick(pick(objectsAndInterfaces).fields); argEdit(field.args, namedIn); break; }
    case 7: { // enum values
      const e = s.enums.length ? pick(s.enums) : null;
      if (!e) break;
      if (next(2) || e.values.length < 2) e.values.push('V' + next(100)); else e.values.splice(next(e.values.length), 1);
      break;
    }
    case 8: { // union members
      const u = s.unions.length ? pick(s.unions) : null;
      if (!u) break;
      if (u.members.includes('C') && next(2)) u.members.splice(u.members.indexOf('C'), 1);
      else if (!u.members.includes('C')) u.members.push('C');
      else if (u.members.length > 1) u.members.shift();
      break;
    }
    case 9: { // interfaces
      const o = pick(s.objects.slice(1));
      if (!o) break;
      if (o.interfaces.includes('Named')) o.interfaces.splice(o.interfaces.indexOf('Named'), 1);
      else if (o.fields.some((f) => f.name === 'name' && f.type === 'String')) o.interfaces.unshift('Named');
      else o.interfaces = [];
      break;
    }
    case 10: { // input fields
      const input = s.inputs.length ? s.inputs[0] : null;
      if (!input) break;
      const which = next(3);
      if (which === 0) input.fields.push({ name: 'g' + next(100), type: pick(namedIn) + (next(2) ? '!' : ''), default: null });
      else if (which === 1 && input.fields.length > 1) input.fields.splice(next(input.fields.length), 1);
      else { const f = pick(input.fields); f.type = retype(f.type, namedIn); }
      break;
    }
    case 11: { // directives
      const d = s.directives.length ? pick(s.directives) : null;
      const which = next(6);
      if (!d || which === 0) s.directives.push({ name: 'new' + next(100), description: null, args: [], repeatable: false, locations: ['FIELD'] });
      else if (which === 1) s.directives.splice(s.directives.indexOf(d), 1);
      else if (which === 2) argEdit(d.args, namedIn);
      else if (which === 3) d.repeatable = !d.repeatable;
      else if (which === 4 && d.locations.length > 1) d.locations.shift();
      else d.locations.push(pick(['ENUM', 'SCALAR', 'INTERFACE', 'FRAGMENT_SPREAD']));
      break;
    }
    case 12: { // a type added
      s.scalars.push({ name: 'Extra' + next(100), description: null });
      break;
    }
    default: { // a description
      const all = [].concat(s.scalars, s.enums, s.inputs, s.interfaces, s.objects, s.unions);
      pick(all).description = pick(['Changed', 'Another', null]);
    }
  }
}

function print(s) {
  const desc = (d) => (d ? JSON.stringify(d) + ' ' : '');
  const arg = (a) => `${a.name}: ${a.type}${a.default ? ' = ' + a.default : ''}`;
  const args = (list) => (list.length ? '(' + list.map(arg).join(', ') + ')' : '');
  const fields = (list) => list.map((f) => `  ${f.name}${args(f.args)}: ${f.type}`).join('\n');
  const impl = (list) => (list.length ? ' implements ' + list.join(' & ') : '');
  const parts = [];
  for (const t of s.scalars) parts.push(`${desc(t.description)}scalar ${t.name}`);
  for (const t of s.enums) parts.push(`${desc(t.description)}enum ${t.name} { ${t.values.join(' ')} }`);
  for (const t of s.inputs) parts.push(`${desc(t.description)}input ${t.name} {\n${t.fields.map(arg).map((f) => '  ' + f).join('\n')}\n}`);
  for (const t of s.interfaces) parts.push(`${desc(t.description)}interface ${t.name}${impl(t.interfaces)} {\n${fields(t.fields)}\n}`);
  for (const t of s.objects) parts.push(`${desc(t.description)}type ${t.name}${impl(t.interfaces)} {\n${fields(t.fields)}\n}`);
  for (const t of s.unions) parts.push(`${desc(t.description)}union ${t.name} = ${t.members.join(' | ')}`);
  for (const d of s.directives) parts.push(`directive @${d.name}${args(d.args)}${d.repeatable ? ' repeatable' : ''} on ${d.locations.join(' | ')}`);
  return parts.join('\n') + '\n';
}

function valid(sdl) {
  try {
    const schema = graphql.buildSchema(sdl);
    return graphql.validateSchema(schema).length === 0 ? schema : null;
  } catch (error) {
    return null;
  }
}

const plain = (changes) => changes.map(({ type, description }) => ({ type, description }));
const fixtures = [];
let attempts = 0;
while (fixtures.length < 300 && attempts < 5000) {
  attempts++;
  const before = base();
  for (let i = next(3); i > 0; i--) edit(before);
  const after = JSON.parse(JSON.stringify(before));
  for (let i = 1 + next(4); i > 0; i--) edit(after);
  const oldSDL = print(before);
  const newSDL = print(after);
  const oldSchema = valid(oldSDL);
  const newSchema = valid(newSDL);
  if (!oldSchema || !newSchema) continue;
  fixtures.push({
    old: oldSDL,
    new: newSDL,
    breaking: plain(graphql.findBreakingChanges(oldSchema, newSchema)),
    dangerous: plain(graphql.findDangerousChanges(oldSchema, newSchema)),
  });
}
const out = path.join(__dirname, '../../Tests/GraphQLTests/Fixtures/schema-change-cases.json');
fs.writeFileSync(out, '[\n' + fixtures.map((f) => JSON.stringify(f)).join(',\n') + '\n]\n');
const counts = {};
for (const f of fixtures) for (const c of f.breaking.concat(f.dangerous)) counts[c.type] = (counts[c.type] || 0) + 1;
console.log(`wrote ${fixtures.length} cases (${attempts} tried) to ${path.relative(process.cwd(), out)}`);
console.log(counts);
