// The explorer: an operation built by ticking fields in a tree of the
// schema, as GraphiQL's explorer and Apollo Sandbox offer. Ticking a field
// adds it (a field of an object type opens its own fields); its arguments
// follow, the required ones always, each with a value written as GraphQL
// (a string in quotes, an enum value bare). The operation it writes is its
// own: `onChange(text)` gets the whole document each time.
import { element, namedType, typeName } from './docs-explorer.js';

/// A value to start a required argument with, by its type.
function startingValue(ref, types) {
  if (ref.kind === 'NON_NULL') return startingValue(ref.ofType, types);
  if (ref.kind === 'LIST') return '[]';
  const type = types.get(ref.name);
  switch (type?.kind) {
    case 'ENUM': return type.enumValues?.[0]?.name ?? '';
    case 'INPUT_OBJECT': return '{}';
    default:
      switch (ref.name) {
        case 'Int': case 'Float': return '0';
        case 'Boolean': return 'false';
        default: return '""';
      }
  }
}

export class QueryExplorer {
  /// `schema()` resolves to the introspected schema (the docs' own).
  constructor({ tree, kind, schema, onChange }) {
    Object.assign(this, { tree, kind, schema, onChange });
    this.selections = { query: new Map(), mutation: new Map(), subscription: new Map() };
    kind.addEventListener('change', () => {
      this.render();
      this.emit();
    });
  }

  async open() {
    this.loaded = await this.schema();
    if (!this.loaded) return;
    this.types = new Map(this.loaded.types.map((type) => [type.name, type]));
    const roots = [['query', this.loaded.queryType], ['mutation', this.loaded.mutationType], ['subscription', this.loaded.subscriptionType]];
    if (!this.kind.options.length) {
      for (const [label, root] of roots) {
        if (root) this.kind.append(Object.assign(document.createElement('option'), { value: label, textContent: label }));
      }
    }
    this.render();
  }

  rootType() {
    const root = { query: this.loaded.queryType, mutation: this.loaded.mutationType, subscription: this.loaded.subscriptionType }[this.kind.value];
    return root ? this.types.get(root.name) : null;
  }

  render() {
    const root = this.rootType();
    if (!root) return;
    this.tree.replaceChildren(this.fieldList(root, this.selections[this.kind.value], root.name));
  }

  /// The fields of `type`, each with a box ticked when `selected` has it.
  fieldList(type, selected, path) {
    const list = element('ul');
    for (const field of type.fields ?? []) {
      if (field.isDeprecated && !selected.has(field.name)) continue;
      const item = element('li', 'explorer-field');
      const id = `explorer-${path}.${field.name}`.replace(/[^A-Za-z0-9_.-]/g, '_');
      const box = Object.assign(document.createElement('input'), { type: 'checkbox', id, checked: selected.has(field.name) });
      box.dataset.field = `${path}.${field.name}`;
      const label = element('label');
      label.htmlFor = id;
      label.append(box, element('span', 'explorer-field-name', field.name), element('span', 'explorer-type', typeName(field.type)));
      item.append(label);
      box.addEventListener('change', () => {
        if (box.checked) {
          const arguments_ = new Map();
          for (const argument of field.args ?? []) {
            if (argument.type.kind === 'NON_NULL' && argument.defaultValue == null) {
              arguments_.set(argument.name, startingValue(argument.type, this.types));
            }
          }
          selected.set(field.name, { arguments: arguments_, fields: new Map() });
        } else {
          selected.delete(field.name);
        }
        this.render();
        this.emit();
      });
      const chosen = selected.get(field.name);
      if (chosen) {
        if (field.args?.length) item.append(this.argumentList(field, chosen.arguments, `${path}.${field.name}`));
        const inner = this.types.get(namedType(field.type));
        if (inner && (inner.kind === 'OBJECT' || inner.kind === 'INTERFACE')) {
          item.append(this.fieldList(inner, chosen.fields, `${path}.${field.name}`));
        }
      }
      list.append(item);
    }
    return list;
  }

  argumentList(field, chosen, path) {
    const list = element('ul', 'explorer-arguments');
    for (const argument of field.args) {
      const required = argument.type.kind === 'NON_NULL' && argument.defaultValue == null;
      const item = element('li', 'explorer-argument');
      const id = `explorer-${path}(${argument.name})`.replace(/[^A-Za-z0-9_.-]/g, '_');
      const box = Object.assign(document.createElement('input'), {
        type: 'checkbox', id, checked: chosen.has(argument.name), disabled: required,
      });
      const label = element('label');
      label.htmlFor = id;
      label.append(box, element('span', 'explorer-argument-name', argument.name + ':'));
      item.append(label);
      box.addEventListener('change', () => {
        if (box.checked) chosen.set(argument.name, startingValue(argument.type, this.types));
        else chosen.delete(argument.name);
        this.render();
        this.emit();
      });
      if (chosen.has(argument.name)) {
        const value = Object.assign(document.createElement('input'), { type: 'text', value: chosen.get(argument.name) });
        value.setAttribute('aria-label', `${argument.name} (${typeName(argument.type)})`);
        value.dataset.argument = `${path}(${argument.name})`;
        value.addEventListener('input', () => {
          chosen.set(argument.name, value.value);
          this.emit();
        });
        item.append(' ', value, element('span', 'explorer-type', ' ' + typeName(argument.type)));
      }
      list.append(item);
    }
    return list;
  }

  /// The operation as text: `query Explorer { … }`, fields in the schema's
  /// order; a field of an object type with nothing ticked under it asks
  /// for `__typename`, so the document stays valid as it grows.
  text() {
    const root = this.rootType();
    const selected = this.selections[this.kind.value];
    if (!root || !selected.size) return `${this.kind.value} Explorer {\n  __typename\n}\n`;
    return `${this.kind.value} Explorer ${this.block(root, selected, '')}\n`;
  }

  block(type, selected, indentation) {
    const inner = indentation + '  ';
    const lines = [];
    for (const field of type.fields ?? []) {
      const chosen = selected.get(field.name);
      if (!chosen) continue;
      let line = inner + field.name;
      const arguments_ = [...chosen.arguments].filter(([, value]) => value.trim() !== '');
      if (arguments_.length) line += '(' + arguments_.map(([name, value]) => `${name}: ${value.trim()}`).join(', ') + ')';
      const innerType = this.types.get(namedType(field.type));
      if (innerType && ['OBJECT', 'INTERFACE', 'UNION'].includes(innerType.kind)) {
        line += ' ' + (chosen.fields.size ? this.block(innerType, chosen.fields, inner) : `{\n${inner}  __typename\n${inner}}`);
      }
      lines.push(line);
    }
    return `{\n${lines.join('\n')}\n${indentation}}`;
  }

  emit() {
    this.onChange(this.text());
  }
}
