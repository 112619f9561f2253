// Talking to the API: queries and mutations over HTTP (GraphQL over HTTP),
// subscriptions over graphql-transport-ws, and the bearer token the
// sign-in helper keeps.

const graphQLPath = '/graphql';
const tokenKey = 'huddle.playground.token';
const userKey = 'huddle.playground.user';

export const account = {
  get token() { return localStorage.getItem(tokenKey); },
  get username() { return localStorage.getItem(userKey); },
  remember(token, username) {
    localStorage.setItem(tokenKey, token);
    localStorage.setItem(userKey, username);
  },
  forget() {
    localStorage.removeItem(tokenKey);
    localStorage.removeItem(userKey);
  },
};

/// The headers of a request: the headers editor's, with the kept token as
/// Authorization unless the editor sets one.
function requestHeaders(extra) {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json, application/json' };
  const names = Object.keys(extra).map((name) => name.toLowerCase());
  if (account.token && !names.includes('authorization')) headers.Authorization = 'Bearer ' + account.token;
  return Object.assign(headers, extra);
}

/// Runs a query or mutation; resolves to { status, body, milliseconds }.
export async function post(request, extraHeaders = {}) {
  const started = performance.now();
  const response = await fetch(graphQLPath, {
    method: 'POST',
    headers: requestHeaders(extraHeaders),
    body: JSON.stringify(request),
  });
  const text = await response.text();
  let body;
  try { body = JSON.parse(text); } catch { body = text; }
  return { status: response.status, body, milliseconds: Math.round(performance.now() - started) };
}

/// Runs an operation with files, by the GraphQL multipart request
/// specification: `files` is [{ path: 'variables.file', file }], each path
/// a null in the operations sent. Resolves as `post` does.
export async function postMultipart(request, files, extraHeaders = {}) {
  const started = performance.now();
  const operations = JSON.parse(JSON.stringify(request));
  operations.variables ??= {};
  for (const { path } of files) {
    const [, name, index] = path.split('.');
    if (index === undefined) operations.variables[name] = null;
    else (operations.variables[name] = Array.isArray(operations.variables[name]) ? operations.variables[name] : [])[Number(index)] = null;
  }
  const form = new FormData();
  form.append('operations', JSON.stringify(operations));
  form.append('map', JSON.stringify(Object.fromEntries(files.map(({ path }, index) => [String(index), [path]]))));
  files.forEach(({ file }, index) => form.append(String(index), file, file.name));
  // The browser writes the multipart Content-Type with its boundary; the
  // preflight header tells the server this is no cross-site form.
  const headers = requestHeaders({ 'GraphQL-Require-Preflight': '1', ...extraHeaders });
  for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-type') delete headers[name];
  const response = await fetch(graphQLPath, { method: 'POST', headers, body: form });
  const text = await response.text();
  let body;
  try { body = JSON.parse(text); } catch { body = text; }
  return { status: response.status, body, milliseconds: Math.round(performance.now() - started) };
}

/// Signs in with logIn and keeps the token; resolves to the username.
export async function signIn(username, password) {
  const { body } = await post({
    query: 'mutation LogIn($username: String!, $password: String!) { logIn(username: $username, password: $password) { token user { username } } }',
    variables: { username, password },
  });
  if (body.errors) throw new Error(body.errors[0].message);
  account.remember(body.data.logIn.token, body.data.logIn.user.username);
  return body.data.logIn.user.username;
}

/// Revokes the kept token (logOut) and forgets it.
export async function signOut() {
  if (account.token) await post({ query: 'mutation { logOut }' }).catch(() => {});
  account.forget();
}

/// One subscription over graphql-transport-ws. Calls `onEvent(payload)`
/// for each `next`, `onEnd(reason)` once it is over; returns a stop function.
export function subscribe(request, extraHeaders, { onEvent, onEnd }) {
  const url = new URL(graphQLPath, location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(url, 'graphql-transport-ws');
  const authorization = Object.entries(extraHeaders).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  const token = authorization ? authorization.replace(/^Bearer\s+/i, '') : account.token;
  let ended = false;
  const end = (reason) => {
    if (ended) return;
    ended = true;
    onEnd(reason);
  };
  socket.onopen = () => socket.send(JSON.stringify({ type: 'connection_init', payload: token ? { token } : {} }));
  socket.onmessage = (message) => {
    const data = JSON.parse(message.data);
    switch (data.type) {
      case 'connection_ack':
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: request }));
        break;
      case 'ping':
        socket.send(JSON.stringify({ type: 'pong' }));
        break;
      case 'next':
        onEvent(data.payload);
        break;
      case 'error':
        onEvent({ errors: data.payload });
        end('error');
        socket.close(1000);
        break;
      case 'complete':
        end('complete');
        socket.close(1000);
        break;
    }
  };
  socket.onclose = (event) => end(event.code === 1000 ? 'closed' : `closed (${event.code}${event.reason ? ': ' + event.reason : ''})`);
  return () => {
    if (socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ id: '1', type: 'complete' }));
      socket.close(1000);
    }
    end('stopped');
  };
}
