// The Playground: editors, running operations, subscriptions' live events,
// sign-in, prettify, history, the operation picker and shareable URLs.
import { completionHint, diagnosticsSource, format, operationsOf } from './language-service.js';
import { account, post, postMultipart, signIn, signOut, subscribe } from './transport.js';
import { DocsExplorer } from './docs-explorer.js';

const $ = (id) => document.getElementById(id);
const sessionKey = 'huddle.playground.session';
const historyKey = 'huddle.playground.history';
const historyLimit = 50;
const welcome = `# Welcome to the Huddle Playground.
# Ctrl-Space completes, Ctrl-Enter runs; "Sign in" keeps a token for you.
query Me {
  me {
    id
    username
  }
}
`;

// MARK: - Editors

let operations = [];
const queryEditor = CodeMirror($('query-editor'), {
  mode: 'graphql',
  lineNumbers: true,
  tabSize: 2,
  indentUnit: 2,
  matchBrackets: true,
  autoCloseBrackets: true,
  gutters: ['CodeMirror-lint-markers'],
  lint: diagnosticsSource((found) => {
    operations = found;
    renderOperationPicker();
  }),
  hintOptions: { hint: completionHint(showHintDocumentation), completeSingle: false },
  extraKeys: {
    'Ctrl-Space': (cm) => cm.showHint(),
    'Ctrl-Enter': () => run(),
    'Cmd-Enter': () => run(),
    'Shift-Ctrl-P': () => prettify(),
    'Ctrl-/': 'toggleComment',
    'Cmd-/': 'toggleComment',
  },
});
queryEditor.on('inputRead', (cm, change) => {
  if (cm.state.completionActive) return;
  if (/^[_A-Za-z$@]$/.test(change.text[0])) cm.showHint();
});
const jsonEditor = (element, placeholder) => CodeMirror(element, {
  mode: { name: 'javascript', json: true },
  tabSize: 2,
  matchBrackets: true,
  autoCloseBrackets: true,
  placeholder,
  extraKeys: { 'Ctrl-Enter': () => run(), 'Cmd-Enter': () => run() },
});
const variablesEditor = jsonEditor($('variables-editor'), '{ "variable": "value" }');
const headersEditor = jsonEditor($('headers-editor'), '{ "X-Header": "value" }');
const resultView = CodeMirror($('result'), { mode: { name: 'javascript', json: true }, readOnly: true, lineWrapping: true });

/// The selected completion's description, in the status line while the list is open.
function showHintDocumentation(item) {
  const status = $('status');
  if (!item) {
    if (status.className === 'hint-documentation') setStatus('');
    return;
  }
  status.textContent = item.documentation ?? '';
  status.className = 'hint-documentation';
}

for (const tab of document.querySelectorAll('.tabs button')) {
  tab.addEventListener('click', () => {
    for (const other of document.querySelectorAll('.tabs button')) other.setAttribute('aria-selected', String(other === tab));
    $('variables-editor').hidden = tab.dataset.tab !== 'variables';
    $('headers-editor').hidden = tab.dataset.tab !== 'headers';
    $('files-panel').hidden = tab.dataset.tab !== 'files';
    if (tab.dataset.tab !== 'files') (tab.dataset.tab === 'variables' ? variablesEditor : headersEditor).refresh();
  });
}

// MARK: - Operations

function renderOperationPicker() {
  const picker = $('operation');
  const previous = picker.value;
  const named = operations.filter((operation) => operation.name);
  $('operation-picker').hidden = operations.length < 2;
  picker.replaceChildren(...named.map((operation) => {
    const option = document.createElement('option');
    option.value = operation.name;
    option.textContent = `${operation.type} ${operation.name}`;
    return option;
  }));
  if (named.some((operation) => operation.name === previous)) picker.value = previous;
}

/// The operation a run starts: the picker's choice when there are several,
/// else the one under the cursor.
function selectedOperation() {
  if (operations.length < 2) return operations[0];
  return operations.find((operation) => operation.name === $('operation').value) ?? operations[0];
}

function parseJSONObject(editor, what) {
  const text = editor.getValue().trim();
  if (!text) return {};
  const value = JSON.parse(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`The ${what} must be a JSON object.`);
  return value;
}

function setStatus(text, kind = '') {
  $('status').textContent = text;
  $('status').className = kind;
}

let stopSubscription = null;

async function run() {
  let variables;
  let headers;
  try {
    variables = parseJSONObject(variablesEditor, 'variables');
    headers = parseJSONObject(headersEditor, 'headers');
  } catch (error) {
    setStatus(error.message, 'error');
    return;
  }
  const query = queryEditor.getValue();
  // The linter's last look may be older than the last keystroke.
  try {
    operations = await operationsOf(query);
    renderOperationPicker();
  } catch {
    // Run anyway; the server says what is wrong.
  }
  const operation = selectedOperation();
  const request = { query, variables };
  if (operation?.name && operations.length > 1) request.operationName = operation.name;
  remember(request);
  if (stopSubscription) stopSubscription();
  if (operation?.type === 'subscription') return startSubscription(request, headers);
  $('events').hidden = true;
  setStatus('Running…');
  try {
    const files = chosenFilesFor(query, operation);
    const { status, body, milliseconds } = files.length ? await postMultipart(request, files, headers) : await post(request, headers);
    resultView.setValue(typeof body === 'string' ? body : JSON.stringify(body, null, 2));
    setStatus(`${status} · ${milliseconds} ms`, status === 200 ? 'ok' : 'error');
  } catch (error) {
    setStatus(`The request failed: ${error.message}`, 'error');
  }
}

// MARK: - Files

/// The files picked for the `Upload` variables the document declares, by name.
const pickedFiles = new Map();

/// The document's variables of type Upload or [Upload]: { name, list }.
function uploadVariables(text) {
  const found = [];
  for (const match of text.matchAll(/\$([_A-Za-z][_0-9A-Za-z]*)\s*:\s*(\[\s*)?Upload\b/g)) {
    if (!found.some((variable) => variable.name === match[1])) found.push({ name: match[1], list: !!match[2] });
  }
  return found;
}

/// One file input per Upload variable, kept as the document changes.
function renderFiles() {
  const variables = uploadVariables(queryEditor.getValue());
  const list = $('file-list');
  const shown = [...list.children].map((item) => item.dataset.variable + (item.dataset.list ? '[]' : ''));
  const wanted = variables.map((variable) => variable.name + (variable.list ? '[]' : ''));
  $('files-empty').hidden = variables.length > 0;
  if (shown.join() === wanted.join()) return;
  // New inputs are empty: nothing picked before is sent with them.
  pickedFiles.clear();
  list.replaceChildren(...variables.map(({ name, list: isList }) => {
    const item = document.createElement('li');
    item.dataset.variable = name;
    if (isList) item.dataset.list = 'true';
    const label = document.createElement('label');
    label.textContent = `$${name}`;
    const input = Object.assign(document.createElement('input'), { type: 'file', id: `file-${name}`, multiple: isList });
    input.addEventListener('change', () => pickedFiles.set(name, [...input.files]));
    label.htmlFor = input.id;
    item.append(label, input);
    return item;
  }));
}

/// The text of `operation` in `query`: from where it starts to where the
/// next operation does (fragments between declare no variables).
function operationText(query, operation) {
  if (!operation?.position || operations.length < 2) return query;
  const lines = query.split('\n');
  const offset = (position) => lines.slice(0, position.line).reduce((sum, line) => sum + line.length + 1, 0) + position.character;
  const start = offset(operation.position);
  const later = operations.map((other) => offset(other.position)).filter((at) => at > start);
  return query.slice(start, later.length ? Math.min(...later) : query.length);
}

/// The picked files of the variables the operation run declares: { path,
/// file }, a list variable's as `variables.name.0`, `variables.name.1`, ….
function chosenFilesFor(query, operation) {
  const files = [];
  for (const { name, list } of uploadVariables(operationText(query, operation))) {
    const picked = pickedFiles.get(name) ?? [];
    if (list) picked.forEach((file, index) => files.push({ path: `variables.${name}.${index}`, file }));
    else if (picked[0]) files.push({ path: `variables.${name}`, file: picked[0] });
  }
  return files;
}

queryEditor.on('change', renderFiles);

function startSubscription(request, headers) {
  const list = $('event-list');
  list.replaceChildren();
  $('event-count').textContent = '0';
  $('events').hidden = false;
  resultView.setValue('');
  setStatus('Subscribed; waiting for events…', 'ok');
  stopSubscription = subscribe(request, headers, {
    onEvent(payload) {
      const item = document.createElement('li');
      item.className = 'event';
      const time = document.createElement('time');
      time.textContent = new Date().toLocaleTimeString();
      const body = document.createElement('pre');
      body.textContent = JSON.stringify(payload, null, 2);
      item.append(time, body);
      list.prepend(item);
      $('event-count').textContent = String(list.childElementCount);
      resultView.setValue(JSON.stringify(payload, null, 2));
    },
    onEnd(reason) {
      stopSubscription = null;
      setStatus(`Subscription ${reason}.`, reason === 'complete' || reason === 'stopped' ? '' : 'error');
    },
  });
}

$('run').addEventListener('click', () => run());
$('stop').addEventListener('click', () => stopSubscription?.());

// MARK: - Prettify

async function prettify() {
  try {
    const cursor = queryEditor.getCursor();
    queryEditor.setValue(await format(queryEditor.getValue()));
    queryEditor.setCursor(cursor);
    const variables = variablesEditor.getValue().trim();
    if (variables) variablesEditor.setValue(JSON.stringify(JSON.parse(variables), null, 2));
    setStatus('');
  } catch (error) {
    setStatus(error.message, 'error');
  }
}
$('prettify').addEventListener('click', () => prettify());

// MARK: - History

function history() {
  try { return JSON.parse(localStorage.getItem(historyKey)) ?? []; } catch { return []; }
}

function remember(request) {
  const entry = { query: request.query, variables: variablesEditor.getValue(), operationName: request.operationName ?? null, at: Date.now() };
  const entries = history().filter((old) => old.query !== entry.query || old.variables !== entry.variables);
  localStorage.setItem(historyKey, JSON.stringify([entry, ...entries].slice(0, historyLimit)));
}

function openHistory() {
  const list = $('history-list');
  const entries = history();
  list.replaceChildren(...entries.map((entry) => {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.className = 'history-entry';
    const title = entry.operationName ?? entry.query.replace(/#[^\n]*/g, '').replace(/\s+/g, ' ').trim().slice(0, 80);
    button.textContent = `${new Date(entry.at).toLocaleString()} — ${title}`;
    button.addEventListener('click', () => {
      queryEditor.setValue(entry.query);
      variablesEditor.setValue(entry.variables ?? '');
      $('history').hidden = true;
    });
    item.append(button);
    return item;
  }));
  if (!entries.length) list.replaceChildren(Object.assign(document.createElement('li'), { textContent: 'Nothing run yet.' }));
  $('history').hidden = false;
}
$('history-button').addEventListener('click', openHistory);
$('history-close').addEventListener('click', () => { $('history').hidden = true; });
$('history-clear').addEventListener('click', () => {
  localStorage.removeItem(historyKey);
  openHistory();
});

// MARK: - Shareable URLs and the session

function shareURL() {
  const url = new URL(location.pathname, location.href);
  url.searchParams.set('query', queryEditor.getValue());
  const variables = variablesEditor.getValue().trim();
  if (variables) url.searchParams.set('variables', variables);
  const operation = selectedOperation();
  if (operation?.name && operations.length > 1) url.searchParams.set('operationName', operation.name);
  return url.toString();
}

$('share').addEventListener('click', () => {
  const url = shareURL();
  $('share-url').value = url;
  $('share-box').hidden = false;
  $('share-url').select();
  navigator.clipboard?.writeText(url).then(() => setStatus('Link copied.', 'ok'), () => {});
});
$('share-close').addEventListener('click', () => { $('share-box').hidden = true; });

function restore() {
  const parameters = new URLSearchParams(location.search);
  if (parameters.has('query')) {
    queryEditor.setValue(parameters.get('query'));
    variablesEditor.setValue(parameters.get('variables') ?? '');
    const operationName = parameters.get('operationName');
    if (operationName) {
      const option = document.createElement('option');
      option.value = operationName;
      $('operation').replaceChildren(option);
      $('operation').value = operationName;
    }
    return;
  }
  try {
    const session = JSON.parse(localStorage.getItem(sessionKey));
    queryEditor.setValue(session?.query ?? welcome);
    variablesEditor.setValue(session?.variables ?? '');
    headersEditor.setValue(session?.headers ?? '');
  } catch {
    queryEditor.setValue(welcome);
  }
}

let saveTimer = 0;
function saveSession() {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => {
    localStorage.setItem(sessionKey, JSON.stringify({
      query: queryEditor.getValue(), variables: variablesEditor.getValue(), headers: headersEditor.getValue(),
    }));
  }, 300);
}

// MARK: - Sign-in

function renderAccount() {
  const username = account.token ? account.username : null;
  $('account').textContent = username ? `Signed in as ${username}` : '';
  $('sign-in-button').hidden = Boolean(username);
  $('sign-out-button').hidden = !username;
}

async function submitSignIn() {
  $('sign-in-error').textContent = '';
  try {
    await signIn($('sign-in-username').value, $('sign-in-password').value);
    $('sign-in').hidden = true;
    $('sign-in-password').value = '';
    renderAccount();
  } catch (error) {
    $('sign-in-error').textContent = error.message;
  }
}
$('sign-in-button').addEventListener('click', () => {
  $('sign-in').hidden = false;
  $('sign-in-username').focus();
});
$('sign-in-cancel').addEventListener('click', () => { $('sign-in').hidden = true; });
$('sign-in-submit').addEventListener('click', submitSignIn);
for (const input of [$('sign-in-username'), $('sign-in-password')]) {
  input.addEventListener('keydown', (event) => { if (event.key === 'Enter') submitSignIn(); });
}
$('sign-out-button').addEventListener('click', async () => {
  await signOut();
  renderAccount();
});

// MARK: - Docs

const docs = new DocsExplorer({
  panel: $('docs'), search: $('docs-search'), trail: $('docs-trail'), content: $('docs-content'), post: (request) => post(request),
});
$('docs-button').addEventListener('click', () => {
  $('docs').hidden = !$('docs').hidden;
  if (!$('docs').hidden && !docs.schema) docs.load();
});

document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') for (const dialog of document.querySelectorAll('.dialog')) dialog.hidden = true;
});

restore();
renderAccount();
for (const editor of [queryEditor, variablesEditor, headersEditor]) editor.on('change', saveSession);
queryEditor.focus();
queryEditor.setCursor(queryEditor.lineCount(), 0);
window.playground = { queryEditor, variablesEditor, headersEditor, resultView };
