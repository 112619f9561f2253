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

/// What a response says besides its body: its status, headers and size.
function described(response, text, started) {
  let body;
  try { body = JSON.parse(text); } catch { body = text; }
  return {
    status: response.status,
    body,
    headers: [...response.headers.entries()],
    bytes: new TextEncoder().encode(text).length,
    milliseconds: Math.round(performance.now() - started),
  };
}

/// Runs a query or mutation; resolves to { status, body, headers, bytes, milliseconds }.
export async function post(request, extraHeaders = {}) {
  const started = performance.now();
  const response = await fetch(graphQLPath, {
    method: 'POST',
    headers: requestHeaders(extraHeaders),
    body: JSON.stringify(request),
  });
  return described(response, await response.text(), started);
}

/// Runs an operation that may deliver incrementally (@defer, @stream),
/// asking for multipart/mixed as the incremental delivery RFC describes
/// and calling `onPart(json)` for each result as it arrives (the initial
/// one first). Resolves as `post` does, `body` the last part, with `parts`
/// the count.
export async function postIncremental(request, extraHeaders, onPart) {
  const started = performance.now();
  const headers = requestHeaders(extraHeaders);
  headers.Accept = 'multipart/mixed, application/graphql-response+json, application/json';
  const response = await fetch(graphQLPath, { method: 'POST', headers, body: JSON.stringify(request) });
  const type = response.headers.get('content-type') ?? '';
  const boundary = /boundary="?([^";]+)"?/.exec(type)?.[1];
  if (!type.startsWith('multipart/mixed') || !boundary) {
    const result = described(response, await response.text(), started);
    if (typeof result.body === 'object') onPart(result.body);
    return { ...result, parts: 1 };
  }
  // Parts: CRLF "--" boundary CRLF, headers, a blank line, the JSON; "--" boundary "--" ends.
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const delimiter = '\r\n--' + boundary;
  let buffer = '';
  let whole = '';
  let parts = 0;
  let last = null;
  const take = (final) => {
    for (;;) {
      const start = buffer.indexOf(delimiter);
      if (start < 0) return;
      const next = buffer.indexOf(delimiter, start + delimiter.length);
      if (next < 0 && !final) {
        // The server writes each delimiter before its part, none after: a
        // part is whole once its JSON parses (its top level is an object,
        // so no prefix of it does).
        const part = buffer.slice(start + delimiter.length);
        const blank = part.indexOf('\r\n\r\n');
        if (part.startsWith('--') || blank < 0) return;
        try {
          last = JSON.parse(part.slice(blank + 4));
        } catch {
          return;
        }
        buffer = '';
        parts += 1;
        onPart(last);
        return;
      }
      const part = buffer.slice(start + delimiter.length, next < 0 ? buffer.length : next);
      buffer = next < 0 ? '' : buffer.slice(next);
      const blank = part.indexOf('\r\n\r\n');
      if (part.startsWith('--') || blank < 0) continue;
      const json = part.slice(blank + 4).trim();
      if (!json) continue;
      try {
        last = JSON.parse(json);
        parts += 1;
        onPart(last);
      } catch {
        // An incomplete part waits for its end.
      }
      if (next < 0) return;
    }
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const text = decoder.decode(value, { stream: true });
    buffer += text;
    whole += text;
    take(false);
  }
  take(true);
  return {
    status: response.status,
    body: last,
    parts,
    headers: [...response.headers.entries()],
    bytes: new TextEncoder().encode(whole).length,
    milliseconds: Math.round(performance.now() - started),
  };
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
  return described(response, await response.text(), started);
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
