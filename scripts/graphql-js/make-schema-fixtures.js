// Schema cases answered by graphql-js 16: for each SDL document, the SDL
// validation errors (validateSDL), else the type-system validation errors
// (validateSchema), else printSchema's output. Written to
// Tests/GraphQLTests/Fixtures/schema-cases.json for the Swift tests.
//
// usage: node make-schema-fixtures.js GRAPHQL_MODULE_PATH
'use strict';
const fs = require('fs');
const path = require('path');
const graphqlPath = process.argv[2];
const graphql = require(graphqlPath);
const { validateSDL } = require(path.join(graphqlPath, 'validation/validate.js'));
const cases = require('./schema-cases.js');

const plain = (errors) => errors.map((e) => ({ message: e.message, locations: e.locations || [] }));
const fixtures = cases.map((sdl) => {
  const entry = { sdl };
  const document = graphql.parse(sdl);
  const sdlErrors = validateSDL(document);
  if (sdlErrors.length > 0) {
    entry.buildErrors = plain(sdlErrors);
    return entry;
  }
  const schema = graphql.buildASTSchema(document, { assumeValidSDL: true });
  const errors = graphql.validateSchema(schema);
  if (errors.length > 0) entry.validationErrors = plain(errors);
  entry.printed = graphql.printSchema(schema);
  entry.typeNames = Object.keys(schema.getTypeMap());
  return entry;
});
const out = path.join(__dirname, '../../Tests/GraphQLTests/Fixtures/schema-cases.json');
fs.writeFileSync(out, '[\n' + fixtures.map((f) => JSON.stringify(f)).join(',\n') + '\n]\n');
console.log(`wrote ${fixtures.length} cases to ${path.relative(process.cwd(), out)}`);
