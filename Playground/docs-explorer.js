// The documentation explorer: the schema as introspection tells it, type
// by type (descriptions, fields, arguments, deprecations), with a search
// over type and field names and a trail back.

const introspectionQuery = `query PlaygroundIntrospection {
  __schema {
    queryType { name } mutationType { name } subscriptionType { name }
    types {
      kind name description
      fields(includeDeprecated: true) {
        name description isDeprecated deprecationReason
        args(includeDeprecated: true) { name description type { ...TypeRef } defaultValue isDeprecated deprecationReason }
        type { ...TypeRef }
      }
      inputFields(includeDeprecated: true) { name description type { ...TypeRef } defaultValue isDeprecated deprecationReason }
      enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
      interfaces { name } possibleTypes { name }
    }
  }
}
fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }`;

/// The full introspection query graphql-js's getIntrospectionQuery writes
/// (descriptions, specifiedByURL, repeatable directives, deprecated input
/// values), for the introspection JSON a schema tool loads.
export const fullIntrospectionQuery = `query IntrospectionQuery {
  __schema {
    description
    queryType { name } mutationType { name } subscriptionType { name }
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
fragment TypeRef on __Type {
  kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }
}`;

export function typeName(ref) {
  if (ref.kind === 'NON_NULL') return typeName(ref.ofType) + '!';
  if (ref.kind === 'LIST') return '[' + typeName(ref.ofType) + ']';
  return ref.name;
}

export function namedType(ref) {
  return ref.ofType ? namedType(ref.ofType) : ref.name;
}

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

export class DocsExplorer {
  constructor({ panel, search, trail, content, post }) {
    Object.assign(this, { panel, search, trail, content, post });
    this.types = new Map();
    this.stack = [];
    search.addEventListener('input', () => this.render());
  }

  /// The schema, introspected once.
  async ensureLoaded() {
    if (!this.schema) {
      this.loading ??= this.load().finally(() => { this.loading = null; });
      await this.loading;
    }
    return this.schema;
  }

  async load() {
    const { body } = await this.post({ query: introspectionQuery, operationName: 'PlaygroundIntrospection' });
    if (!body.data) {
      this.content.replaceChildren(element('p', 'error', body.errors?.[0]?.message ?? 'The schema could not be read.'));
      return;
    }
    this.schema = body.data.__schema;
    this.types = new Map(this.schema.types.map((type) => [type.name, type]));
    this.render();
  }

  show(name) {
    if (!this.types.has(name)) return;
    this.stack.push(name);
    this.search.value = '';
    this.render();
  }

  typeLink(ref) {
    const link = element('a', 'type-link', typeof ref === 'string' ? ref : typeName(ref));
    link.href = '#';
    link.addEventListener('click', (event) => {
      event.preventDefault();
      this.show(typeof ref === 'string' ? ref : namedType(ref));
    });
    return link;
  }

  renderTrail() {
    const home = element('a', null, 'Schema');
    home.href = '#';
    home.addEventListener('click', (event) => {
      event.preventDefault();
      this.stack = [];
      this.render();
    });
    const parts = [home];
    this.stack.forEach((name, index) => {
      parts.push(document.createTextNode(' › '));
      const link = element('a', null, name);
      link.href = '#';
      link.addEventListener('click', (event) => {
        event.preventDefault();
        this.stack = this.stack.slice(0, index + 1);
        this.render();
      });
      parts.push(link);
    });
    this.trail.replaceChildren(...parts);
  }

  render() {
    if (!this.schema) return;
    this.renderTrail();
    const term = this.search.value.trim().toLowerCase();
    if (term) return this.renderSearch(term);
    const current = this.stack[this.stack.length - 1];
    if (!current) return this.renderRoot();
    this.renderType(this.types.get(current));
  }

  renderRoot() {
    const nodes = [element('h2', null, 'Root types')];
    for (const [label, root] of [['query', this.schema.queryType], ['mutation', this.schema.mutationType], ['subscription', this.schema.subscriptionType]]) {
      if (!root) continue;
      const line = element('p', 'root-type', label + ': ');
      line.append(this.typeLink(root.name));
      nodes.push(line);
    }
    nodes.push(element('h2', null, 'All types'));
    const list = element('ul', 'type-list');
    for (const type of this.schema.types) {
      if (type.name.startsWith('__')) continue;
      const item = element('li');
      item.append(this.typeLink(type.name), element('span', 'kind', ' ' + type.kind.toLowerCase().replace('_', ' ')));
      list.append(item);
    }
    nodes.push(list);
    this.content.replaceChildren(...nodes);
  }

  renderSearch(term) {
    const list = element('ul', 'search-results');
    for (const type of this.schema.types) {
      if (type.name.startsWith('__')) continue;
      if (type.name.toLowerCase().includes(term)) {
        const item = element('li');
        item.append(this.typeLink(type.name));
        list.append(item);
      }
      for (const field of [...(type.fields ?? []), ...(type.inputFields ?? [])]) {
        if (!field.name.toLowerCase().includes(term)) continue;
        const item = element('li');
        item.append(this.typeLink(type.name), document.createTextNode('.' + field.name + ': '), this.typeLink(field.type));
        list.append(item);
      }
    }
    this.content.replaceChildren(list.childElementCount ? list : element('p', 'muted', 'Nothing matches.'));
  }

  deprecation(item) {
    return item.isDeprecated ? element('p', 'deprecated', 'Deprecated' + (item.deprecationReason ? ': ' + item.deprecationReason : '')) : null;
  }

  renderField(field, withArguments) {
    const entry = element('li', 'field' + (field.isDeprecated ? ' is-deprecated' : ''));
    const signature = element('div', 'signature');
    signature.append(element('span', 'field-name', field.name));
    if (withArguments && field.args?.length) {
      signature.append('(');
      field.args.forEach((argument, index) => {
        if (index) signature.append(', ');
        signature.append(element('span', 'argument-name', argument.name), ': ', this.typeLink(argument.type));
        if (argument.defaultValue != null) signature.append(' = ' + argument.defaultValue);
      });
      signature.append(')');
    }
    signature.append(': ', this.typeLink(field.type));
    if (field.defaultValue != null) signature.append(' = ' + field.defaultValue);
    entry.append(signature);
    if (field.description) entry.append(element('p', 'description', field.description));
    const deprecated = this.deprecation(field);
    if (deprecated) entry.append(deprecated);
    for (const argument of withArguments ? field.args ?? [] : []) {
      if (!argument.description && !argument.isDeprecated) continue;
      const note = element('p', 'argument-description');
      note.append(element('span', 'argument-name', argument.name), ' ', argument.description ?? '');
      if (argument.isDeprecated) note.append(' (deprecated: ' + (argument.deprecationReason ?? '') + ')');
      entry.append(note);
    }
    return entry;
  }

  renderType(type) {
    const nodes = [element('h2', null, type.name), element('p', 'kind', type.kind.toLowerCase().replace('_', ' '))];
    if (type.description) nodes.push(element('p', 'description', type.description));
    const related = [...(type.interfaces ?? []), ...(type.possibleTypes ?? [])];
    if (related.length) {
      const line = element('p', null, type.interfaces?.length ? 'Implements ' : 'Possible types: ');
      related.forEach((ref, index) => {
        if (index) line.append(', ');
        line.append(this.typeLink(ref.name));
      });
      nodes.push(line);
    }
    const section = (title, items, render) => {
      if (!items?.length) return;
      nodes.push(element('h3', null, title));
      const list = element('ul', 'fields');
      for (const item of items) list.append(render(item));
      nodes.push(list);
    };
    section('Fields', type.fields, (field) => this.renderField(field, true));
    section('Input fields', type.inputFields, (field) => this.renderField(field, false));
    section('Values', type.enumValues, (value) => {
      const entry = element('li', 'field' + (value.isDeprecated ? ' is-deprecated' : ''));
      entry.append(element('div', 'signature', value.name));
      if (value.description) entry.append(element('p', 'description', value.description));
      const deprecated = this.deprecation(value);
      if (deprecated) entry.append(deprecated);
      return entry;
    });
    this.content.replaceChildren(...nodes);
  }
}
