// The Playground: documents in tabs, editors, running operations (their
// incremental results as they come), subscriptions' live events, the
// response's headers and size, sign-in, prettify, history, the operation
// picker, shareable URLs, the explorer and resizable panes.
import { completionHint, diagnosticsSource, format, operationsOf } from './language-service.js';
import { account, post, postIncremental, postMultipart, signIn, signOut, subscribe } from './transport.js';
import { DocsExplorer, fullIntrospectionQuery } from './docs-explorer.js';
import { QueryExplorer } from './query-explorer.js';

const $ = (id) => document.getElementById(id);
const sessionKey = 'huddle.playground.session';
const historyKey = 'huddle.playground.history';
const historyLimit = 50;
const layoutKey = 'huddle.playground.layout';
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

/// The editor's JSON object; a mistake is told with its line and column,
/// not as the browser's parser words it.
function parseJSONObject(editor, what) {
  const text = editor.getValue();
  if (!text.trim()) return {};
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const position = Number(/position (\d+)/.exec(error.message)?.[1] ?? NaN);
    let place = '';
    if (Number.isInteger(position)) {
      const before = text.slice(0, position).split('\n');
      place = ` at line ${before.length}, column ${before[before.length - 1].length + 1}`;
      editor.setCursor({ line: before.length - 1, ch: before[before.length - 1].length });
    }
    throw new Error(`The ${what} are not valid JSON${place}: check the quotes, commas and brackets there.`);
  }
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
    let answer;
    if (files.length) {
      answer = await postMultipart(request, files, headers);
    } else if (/@(defer|stream)\b/.test(operationText(query, operation))) {
      answer = await runIncrementally(request, headers);
    } else {
      answer = await post(request, headers);
    }
    const { status, body, milliseconds, bytes } = answer;
    const shown = answer.merged ?? body;
    resultView.setValue(typeof shown === 'string' ? shown : JSON.stringify(shown, null, 2));
    showResponse(answer);
    const parts = answer.parts > 1 ? ` · ${answer.parts} parts` : '';
    setStatus(`${status} · ${milliseconds} ms · ${size(bytes)}${parts}`, status === 200 ? 'ok' : 'error');
  } catch (error) {
    setStatus(`The request failed: ${error.message}`, 'error');
  }
}

/// A size as people read it.
function size(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

// MARK: - Incremental delivery

/// Runs an operation with @defer or @stream over multipart/mixed: each
/// result is listed as it arrives and merged into the result shown (the
/// initial data, each deferred fragment's data at its path, each streamed
/// item appended to its list), as a client library would.
async function runIncrementally(request, headers) {
  const list = $('event-list');
  list.replaceChildren();
  $('events-title').textContent = 'Incremental results';
  $('event-count').textContent = '0';
  $('stop').hidden = true;
  $('events').hidden = false;
  const merged = { data: null };
  const pending = new Map();
  const answer = await postIncremental(request, headers, (part) => {
    listPart(part);
    mergeIncremental(merged, pending, part);
    resultView.setValue(JSON.stringify(merged, null, 2));
  });
  return { ...answer, merged };
}

/// Lists a subscription's event or an incremental result, the newest first.
function listPart(payload) {
  const list = $('event-list');
  const item = document.createElement('li');
  item.className = 'event';
  const time = document.createElement('time');
  time.textContent = new Date().toLocaleTimeString();
  const body = document.createElement('pre');
  body.textContent = JSON.stringify(payload, null, 2);
  item.append(time, body);
  list.prepend(item);
  $('event-count').textContent = String(list.childElementCount);
}

/// Merges one result of an incremental delivery (the RFC's `pending`,
/// `incremental`, `completed`) into `merged`.
function mergeIncremental(merged, pending, part) {
  if ('data' in part && !part.incremental) merged.data = part.data;
  for (const entry of part.pending ?? []) pending.set(entry.id, entry.path);
  const at = (path) => path.reduce((node, key) => (node == null ? node : node[key]), merged.data);
  for (const entry of part.incremental ?? []) {
    const path = [...(pending.get(entry.id) ?? []), ...(entry.subPath ?? [])];
    const target = at(path);
    if (entry.items && Array.isArray(target)) target.push(...entry.items);
    if (entry.data && target && typeof target === 'object') deepMerge(target, entry.data);
    if (entry.errors) (merged.errors ??= []).push(...entry.errors);
  }
  for (const entry of part.completed ?? []) {
    if (entry.errors) (merged.errors ??= []).push(...entry.errors);
    pending.delete(entry.id);
  }
  if (part.errors) (merged.errors ??= []).push(...part.errors);
  if (part.extensions) merged.extensions = { ...(merged.extensions ?? {}), ...part.extensions };
}

function deepMerge(target, source) {
  for (const [key, value] of Object.entries(source)) {
    if (value && typeof value === 'object' && !Array.isArray(value) && target[key] && typeof target[key] === 'object') {
      deepMerge(target[key], value);
    } else {
      target[key] = value;
    }
  }
}

// MARK: - The response

let lastResponse = null;

function showResponse(answer) {
  lastResponse = answer;
  for (const id of ['response-headers-button', 'copy-result', 'download-result']) $(id).disabled = false;
  $('response-headers').textContent = answer.headers.map(([name, value]) => `${name}: ${value}`).join('\n');
}

$('response-headers-button').addEventListener('click', () => { $('response-headers').hidden = !$('response-headers').hidden; });
$('copy-result').addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText(resultView.getValue());
    setStatus('Result copied.', 'ok');
  } catch {
    // Without clipboard access (an http page elsewhere than localhost), select it to copy by hand.
    resultView.focus();
    resultView.execCommand('selectAll');
    setStatus('Press Ctrl-C to copy the selected result.');
  }
});
$('download-result').addEventListener('click', () => download('result.json', resultView.getValue(), 'application/json'));

/// Saves `text` as a file named `name`.
function download(name, text, type) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
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
  $('events-title').textContent = 'Subscription events';
  $('stop').hidden = false;
  $('event-count').textContent = '0';
  $('events').hidden = false;
  resultView.setValue('');
  setStatus('Subscribed; waiting for events…', 'ok');
  stopSubscription = subscribe(request, headers, {
    onEvent(payload) {
      listPart(payload);
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

// MARK: - Tabs: a document each

/// { id, title, query, variables, headers } for each tab; `activeTab` the shown one.
let tabs = [];
let activeTab = null;
let nextTabNumber = 1;

/// A tab's title: its first operation's name, else "Untitled".
function titleOf(query) {
  return /\b(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/.exec(query.replace(/#[^\n]*/g, ''))?.[1] ?? 'Untitled';
}

function keepActiveTab() {
  const tab = tabs.find((candidate) => candidate.id === activeTab);
  if (!tab) return;
  tab.query = queryEditor.getValue();
  tab.variables = variablesEditor.getValue();
  tab.headers = headersEditor.getValue();
  tab.title = titleOf(tab.query);
}

function showTab(id) {
  keepActiveTab();
  const tab = tabs.find((candidate) => candidate.id === id);
  if (!tab) return;
  activeTab = id;
  queryEditor.setValue(tab.query);
  variablesEditor.setValue(tab.variables ?? '');
  headersEditor.setValue(tab.headers ?? '');
  queryEditor.clearHistory();
  renderTabs();
  saveSession();
}

function newTab(query = '', variables = '', headers = '', title = null) {
  keepActiveTab();
  const tab = { id: `tab-${nextTabNumber++}`, title: title ?? titleOf(query), query, variables, headers };
  tabs.push(tab);
  activeTab = null;
  showTab(tab.id);
  return tab;
}

function closeTab(id) {
  const index = tabs.findIndex((tab) => tab.id === id);
  if (index < 0) return;
  tabs.splice(index, 1);
  if (!tabs.length) return newTab(welcome);
  if (activeTab === id) {
    activeTab = null;
    showTab(tabs[Math.min(index, tabs.length - 1)].id);
  } else {
    renderTabs();
    saveSession();
  }
}

function renderTabs() {
  const bar = $('document-tabs');
  const items = tabs.map((tab) => {
    const item = document.createElement('div');
    item.className = 'document-tab';
    item.setAttribute('role', 'tab');
    item.dataset.tab = tab.id;
    item.setAttribute('aria-selected', String(tab.id === activeTab));
    const title = document.createElement('span');
    title.className = 'tab-title';
    title.textContent = tab.id === activeTab ? titleOf(queryEditor.getValue()) : tab.title;
    title.addEventListener('click', () => showTab(tab.id));
    const close = document.createElement('button');
    close.className = 'tab-close';
    close.textContent = '×';
    close.title = 'Close this tab';
    close.addEventListener('click', () => closeTab(tab.id));
    item.append(title, close);
    return item;
  });
  const add = document.createElement('button');
  add.id = 'new-tab';
  add.textContent = '+';
  add.title = 'A new tab';
  add.addEventListener('click', () => newTab());
  bar.replaceChildren(...items, add);
}

function restore() {
  try {
    const session = JSON.parse(localStorage.getItem(sessionKey));
    if (Array.isArray(session?.tabs) && session.tabs.length) {
      tabs = session.tabs;
      nextTabNumber = 1 + Math.max(0, ...tabs.map((tab) => Number(tab.id.replace('tab-', '')) || 0));
      activeTab = tabs.some((tab) => tab.id === session.active) ? session.active : tabs[0].id;
    } else if (session?.query != null) {
      tabs = [{ id: 'tab-1', title: titleOf(session.query), query: session.query, variables: session.variables ?? '', headers: session.headers ?? '' }];
      activeTab = 'tab-1';
      nextTabNumber = 2;
    }
  } catch {
    tabs = [];
  }
  // Nothing is in the editors yet: no tab is shown, so none is kept from them.
  const kept = activeTab;
  activeTab = null;
  const parameters = new URLSearchParams(location.search);
  if (parameters.has('query')) {
    // A shared link opens in a tab of its own, beside the ones kept; the
    // address drops it, so that a reload does not open it again.
    newTab(parameters.get('query'), parameters.get('variables') ?? '');
    window.history.replaceState(null, '', location.pathname);
    const operationName = parameters.get('operationName');
    if (operationName) {
      const option = document.createElement('option');
      option.value = operationName;
      $('operation').replaceChildren(option);
      $('operation').value = operationName;
    }
    return;
  }
  if (!tabs.length) return newTab(welcome);
  showTab(kept);
}

let saveTimer = 0;
function saveSession() {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => {
    keepActiveTab();
    localStorage.setItem(sessionKey, JSON.stringify({ tabs, active: activeTab }));
  }, 300);
}
queryEditor.on('change', () => {
  const shown = document.querySelector(`#document-tabs [data-tab="${activeTab}"] .tab-title`);
  if (shown) shown.textContent = titleOf(queryEditor.getValue());
});

// MARK: - Resizable panes

/// Each splitter resizes the pane before it (the docs': the pane after),
/// by dragging or by the arrow keys; the widths are kept.
function layout() {
  try { return JSON.parse(localStorage.getItem(layoutKey)) ?? {}; } catch { return {}; }
}

function applyWidth(pane, width) {
  $(pane).style.flex = `0 0 ${Math.round(width)}px`;
}

for (const [splitterId, pane, after] of [['explorer-splitter', 'explorer', false], ['editors-splitter', 'editors', false], ['docs-splitter', 'docs', true]]) {
  const splitter = $(splitterId);
  const kept = layout()[pane];
  if (kept) applyWidth(pane, kept);
  const resize = (width) => {
    const main = document.querySelector('main').getBoundingClientRect().width;
    const clamped = Math.max(160, Math.min(width, main - 320));
    applyWidth(pane, clamped);
    localStorage.setItem(layoutKey, JSON.stringify({ ...layout(), [pane]: clamped }));
    for (const editor of [queryEditor, variablesEditor, headersEditor, resultView]) editor.refresh();
  };
  splitter.addEventListener('pointerdown', (event) => {
    event.preventDefault();
    splitter.setPointerCapture(event.pointerId);
    splitter.classList.add('dragging');
    const startX = event.clientX;
    const startWidth = $(pane).getBoundingClientRect().width;
    const move = (moved) => resize(startWidth + (after ? startX - moved.clientX : moved.clientX - startX));
    const up = () => {
      splitter.classList.remove('dragging');
      splitter.removeEventListener('pointermove', move);
      splitter.removeEventListener('pointerup', up);
    };
    splitter.addEventListener('pointermove', move);
    splitter.addEventListener('pointerup', up);
  });
  splitter.addEventListener('keydown', (event) => {
    const step = event.key === 'ArrowLeft' ? -20 : event.key === 'ArrowRight' ? 20 : 0;
    if (!step) return;
    event.preventDefault();
    resize($(pane).getBoundingClientRect().width + (after ? -step : step));
  });
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
  $('docs-splitter').hidden = $('docs').hidden;
  if (!$('docs').hidden) docs.ensureLoaded();
});
$('download-introspection').addEventListener('click', async () => {
  const { body } = await post({ query: fullIntrospectionQuery, operationName: 'IntrospectionQuery' });
  if (!body?.data) return setStatus(body?.errors?.[0]?.message ?? 'The schema could not be read.', 'error');
  download('schema.json', JSON.stringify(body, null, 2), 'application/json');
});

// MARK: - The explorer

/// The explorer writes its operation into a tab of its own (made when it
/// is first needed), never over a document typed by hand.
let explorerTab = null;
const explorer = new QueryExplorer({
  tree: $('explorer-tree'),
  kind: $('explorer-kind'),
  schema: () => docs.ensureLoaded(),
  onChange(text) {
    if (!explorerTab || !tabs.some((tab) => tab.id === explorerTab)) explorerTab = newTab(text, '', '', 'Explorer').id;
    else if (activeTab !== explorerTab) showTab(explorerTab);
    if (queryEditor.getValue() !== text) queryEditor.setValue(text);
  },
});
$('explorer-button').addEventListener('click', () => {
  $('explorer').hidden = !$('explorer').hidden;
  $('explorer-splitter').hidden = $('explorer').hidden;
  if (!$('explorer').hidden) explorer.open();
  for (const editor of [queryEditor, variablesEditor, headersEditor, resultView]) editor.refresh();
});

document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') for (const dialog of document.querySelectorAll('.dialog')) dialog.hidden = true;
});

restore();
renderAccount();
for (const editor of [queryEditor, variablesEditor, headersEditor]) editor.on('change', saveSession);
queryEditor.focus();
queryEditor.setCursor(queryEditor.lineCount(), 0);
window.playground = {
  queryEditor, variablesEditor, headersEditor, resultView,
  get tabs() { keepActiveTab(); return tabs.map((tab) => ({ ...tab, active: tab.id === activeTab })); },
};
