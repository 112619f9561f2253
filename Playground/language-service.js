// The query editor's completion and diagnostics, both computed by the
// server's own engine (POST language-service): the same parser and
// validation rules that run requests, so the editor never disagrees with
// the server.

// Beside this file, wherever the page itself is served.
const endpoint = new URL('language-service', import.meta.url);

async function ask(request) {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(body.errors?.[0]?.message ?? `HTTP ${response.status}`);
  return body;
}

const kindMarks = {
  field: 'F', argument: 'A', enumValue: 'E', variable: '$', fragment: '…', directive: '@', type: 'T',
  keyword: 'K', value: 'V', inputField: 'I',
};

/// A CodeMirror hint function (show-hint's async form) asking the server.
export function completionHint(onDocumentation) {
  const hint = (cm, callback) => {
    const cursor = cm.getCursor();
    ask({ method: 'complete', text: cm.getValue(), position: { line: cursor.line, character: cursor.ch } })
      .then((result) => {
        if (!result.items.length) return callback(null);
        const list = result.items.map((item) => ({
          text: item.label,
          item,
          className: 'hint hint-' + item.kind + (item.deprecated ? ' hint-deprecated' : ''),
          render(element) {
            const mark = document.createElement('span');
            mark.className = 'hint-kind';
            mark.textContent = kindMarks[item.kind] ?? '';
            const label = document.createElement('span');
            label.className = 'hint-label';
            label.textContent = item.label;
            element.append(mark, label);
            if (item.detail) {
              const detail = document.createElement('span');
              detail.className = 'hint-detail';
              detail.textContent = item.detail;
              element.append(detail);
            }
          },
        }));
        const data = {
          list,
          from: CodeMirror.Pos(result.from.line, result.from.character),
          to: CodeMirror.Pos(result.to.line, result.to.character),
        };
        CodeMirror.on(data, 'select', (completion) => onDocumentation(completion.item));
        CodeMirror.on(data, 'close', () => onDocumentation(null));
        callback(data);
      })
      .catch(() => callback(null));
  };
  hint.async = true;
  return hint;
}

/// The end of the word a diagnostic points at, so the mark covers it.
function wordEnd(cm, position) {
  const line = cm.getLine(position.line) ?? '';
  let end = position.ch;
  while (end < line.length && /[_0-9A-Za-z$@.]/.test(line[end])) end++;
  return CodeMirror.Pos(position.line, Math.max(end, Math.min(position.ch + 1, line.length)));
}

/// A CodeMirror lint source (async) asking the server for diagnostics; it
/// also hands the document's operations to `onOperations`.
export function diagnosticsSource(onOperations) {
  return {
    async: true,
    delay: 250,
    getAnnotations(text, update, options, cm) {
      ask({ method: 'diagnose', text })
        .then((result) => {
          onOperations(result.operations);
          const annotations = [];
          for (const diagnostic of result.diagnostics) {
            const positions = diagnostic.positions.length ? diagnostic.positions : [{ line: 0, character: 0 }];
            for (const position of positions) {
              const from = CodeMirror.Pos(position.line, position.character);
              annotations.push({ from, to: wordEnd(cm, from), message: diagnostic.message, severity: diagnostic.severity });
            }
          }
          update(cm, annotations);
        })
        .catch(() => update(cm, []));
    },
  };
}

/// The document's operations (name, type, position), as the server reads them.
export async function operationsOf(text) {
  return (await ask({ method: 'diagnose', text })).operations;
}

/// The document printed by the server's printer, or throws its syntax error.
export async function format(text) {
  const result = await ask({ method: 'format', text });
  if (result.errors) {
    const error = result.errors[0];
    const where = error.locations?.[0];
    throw new Error(where ? `${error.message} (line ${where.line})` : error.message);
  }
  return result.text;
}
