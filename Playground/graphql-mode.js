// A CodeMirror 5 mode for GraphQL documents (spec §2): keywords, names of
// fields, types, arguments and fragments, variables, directives, strings
// (block strings across lines), numbers, comments, and indentation by
// brace depth. Registered as "graphql".
(function (CodeMirror) {
  'use strict';
  const keywords = new Set(['query', 'mutation', 'subscription', 'fragment', 'on', 'schema', 'type', 'input',
    'enum', 'interface', 'union', 'scalar', 'directive', 'extend', 'implements', 'repeatable']);
  const atoms = new Set(['true', 'false', 'null']);

  CodeMirror.defineMode('graphql', function (config) {
    return {
      startState: () => ({ depth: 0, inBlockString: false, expectDefinitionName: false, previous: '' }),
      copyState: (state) => Object.assign({}, state),
      token(stream, state) {
        if (state.inBlockString) {
          while (!stream.eol()) {
            if (stream.match('\\"""')) continue;
            if (stream.match('"""')) { state.inBlockString = false; return 'string'; }
            stream.next();
          }
          return 'string';
        }
        if (stream.eatSpace() || stream.eat(',')) return null;
        if (stream.peek() === '#') { stream.skipToEnd(); return 'comment'; }
        if (stream.match('"""')) { state.inBlockString = true; return this.token(stream, state) || 'string'; }
        if (stream.peek() === '"') {
          stream.next();
          let escaped = false;
          while (!stream.eol()) {
            const ch = stream.next();
            if (ch === '"' && !escaped) break;
            escaped = !escaped && ch === '\\';
          }
          state.previous = 'value';
          return 'string';
        }
        if (stream.match(/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/)) { state.previous = 'value'; return 'number'; }
        if (stream.match('...')) { state.previous = '...'; return 'operator'; }
        if (stream.match(/^\$[_A-Za-z][_0-9A-Za-z]*/)) { state.previous = 'value'; return 'variable-2'; }
        if (stream.match(/^@[_A-Za-z][_0-9A-Za-z]*/)) { state.previous = 'directive'; return 'meta'; }
        const name = stream.match(/^[_A-Za-z][_0-9A-Za-z]*/);
        if (name) {
          const word = name[0];
          const previous = state.previous;
          state.previous = word;
          if (previous === 'fragment' || previous === '...' && word !== 'on') return 'def';
          if (previous === 'query' || previous === 'mutation' || previous === 'subscription') return 'def';
          if (keywords.has(word)) return 'keyword';
          if (atoms.has(word)) return 'atom';
          if (previous === 'on' || previous === 'type-position') return 'variable-3';
          if (stream.match(/^\s*:/, false)) return 'attribute';
          if (previous === ':') return /^[A-Z][A-Z0-9_]*$/.test(word) ? 'atom' : 'variable-3';
          return 'property';
        }
        const ch = stream.next();
        if (ch === '{' || ch === '(' || ch === '[') { state.depth++; state.previous = ch; return 'bracket'; }
        if (ch === '}' || ch === ')' || ch === ']') { state.depth = Math.max(0, state.depth - 1); state.previous = ch; return 'bracket'; }
        state.previous = ch;
        return ch === ':' || ch === '=' || ch === '!' || ch === '|' || ch === '&' ? 'operator' : 'error';
      },
      indent(state, textAfter) {
        const closing = /^[}\])]/.test(textAfter) ? 1 : 0;
        return Math.max(0, state.depth - closing) * config.indentUnit;
      },
      electricInput: /^\s*[}\])]$/,
      lineComment: '#',
      closeBrackets: '()[]{}""',
    };
  });
  CodeMirror.defineMIME('application/graphql', 'graphql');
})(window.CodeMirror);
