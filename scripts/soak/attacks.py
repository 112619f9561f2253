"""The attacks of issue 41 against a running `huddle serve` (see scripts/soak/attacks),
with the figures its note reports: resident memory, a second client's latency,
what arrives of large results, and the window after logOut.

  persisted N     N automatic persisted queries of a ~1 MB comment and a one-line
                  query: RSS before and after, and lookups by hash on fresh connections.
  format          the Playground's format of 19 trees 250 deep (19 KB): its time and
                  size, and the latency of a `{ __typename }` sent meanwhile.
  large           an ~11 MB result over graphql-transport-ws, SSE and multipart
                  @defer, and a plain response in flight at SIGTERM read after 3 s.
  logout PORT2    5 trials: logOut on this server, then at once `{ me { id } }` on
                  the server at PORT2: how many still answered as the user.

Every request goes to 127.0.0.1 only, bounded in count and time.
"""
import asyncio
import hashlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import websockets

PORT = int(os.environ["HUDDLE_ATTACK_PORT"])
PID = int(os.environ["HUDDLE_ATTACK_PID"])
URL = f"http://127.0.0.1:{PORT}/graphql"


def rss_mb():
    with open(f"/proc/{PID}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024


def post(body, url=URL, headers=None, timeout=120):
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def persisted(count):
    padding = "# padding padding padding padding padding padding padding padding padding\n" * 13_000
    post({"query": "{ __typename }"})
    before = rss_mb()
    started = time.time()
    for index in range(count):
        query = padding + f"query Q{index} {{ __typename }}"
        digest = hashlib.sha256(query.encode()).hexdigest()
        post({"query": query, "extensions": {"persistedQuery": {"version": 1, "sha256Hash": digest}}})
    seconds = time.time() - started
    after = rss_mb()
    hits = 0
    for index in range(20):
        digest = hashlib.sha256((padding + f"query Q{index} {{ __typename }}").encode()).hexdigest()
        _, body = post({"extensions": {"persistedQuery": {"version": 1, "sha256Hash": digest}}})
        hits += b'"__typename":"Query"' in body
    time.sleep(2)
    print(f"persisted: {count} documents of {len(padding) >> 10} KiB in {seconds:.1f} s; "
          f"RSS {before:.0f} -> {after:.0f} MiB (+{after - before:.0f}), {rss_mb():.0f} MiB 2 s later; "
          f"{hits} of 20 lookups by hash on fresh connections found the query")


def format_attack():
    text = "{" + " ".join(f"a{i}:" + "me{" * 250 + "id" + "}" * 250 for i in range(19)) + "}"
    answer = {}

    def attack():
        started = time.time()
        status, body = post({"method": "format", "text": text}, url=f"http://127.0.0.1:{PORT}/playground/language-service")
        answer.update(seconds=time.time() - started, status=status, size=len(body),
                      code=json.loads(body).get("errors", [{}])[0].get("extensions", {}).get("code"))

    thread = threading.Thread(target=attack)
    thread.start()
    time.sleep(0.05)
    started = time.time()
    post({"query": "{ __typename }"})
    latency = time.time() - started
    thread.join()
    print(f"format: {len(text)} bytes answered {answer['status']} ({answer['code']}) with {answer['size']} bytes "
          f"in {answer['seconds'] * 1000:.0f} ms; a {{ __typename }} sent meanwhile took {latency * 1000:.0f} ms")


SELECTION = ("__schema { types { name description fields { name description args { name description type { name } } "
             "type { name kind ofType { name } } } } }")
QUERY = "{ " + " ".join(f"a{i}: {SELECTION}" for i in range(120)) + " }"
DEFERRED = "{ __typename ... @defer { " + " ".join(f"a{i}: {SELECTION}" for i in range(120)) + " } }"


async def over_websocket():
    async with websockets.connect(f"ws://127.0.0.1:{PORT}/graphql", subprotocols=["graphql-transport-ws"],
                                  max_size=None, ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "connection_init"}))
        await ws.recv()
        await ws.send(json.dumps({"id": "big", "type": "subscribe", "payload": {"query": QUERY}}))
        sizes = []
        try:
            while True:
                message = await asyncio.wait_for(ws.recv(), 60)
                sizes.append(len(message))
                if '"type":"complete"' in message:
                    break
        except websockets.ConnectionClosed as closed:
            return f"{sizes} then closed {closed.rcvd.code if closed.rcvd else None}"
        await ws.send(json.dumps({"id": "small", "type": "subscribe", "payload": {"query": "{ __typename }"}}))
        after = await asyncio.wait_for(ws.recv(), 10)
        return f"{sizes[0]} bytes, then complete; another operation after it: {'answered' if 'Query' in after else after}"


def curl(arguments):
    return subprocess.run(["curl", "-sS"] + arguments, capture_output=True).stdout


def large():
    print("large: over graphql-transport-ws:", asyncio.run(over_websocket()))
    events = curl([f"http://127.0.0.1:{PORT}/graphql/stream", "-H", "Content-Type: application/json",
                   "-H", "Accept: text/event-stream", "--data", json.dumps({"query": QUERY})])
    print(f"large: SSE: {len(events)} bytes, ends with complete: {events.endswith(b'event: complete' + bytes([10]) + b'data:' + bytes([10, 10]))}")
    parts = curl([URL, "-H", "Content-Type: application/json", "-H", "Accept: multipart/mixed",
                  "--data", json.dumps({"query": DEFERRED})])
    print(f"large: multipart @defer: {len(parts)} bytes, closed by its delimiter: {parts.endswith(b'-----' + bytes([13, 10]))}")


def in_flight_at_sigterm():
    body = json.dumps({"query": QUERY}).encode()
    client = socket.create_connection(("127.0.0.1", PORT))
    client.sendall(b"POST /graphql HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: "
                   + str(len(body)).encode() + b"\r\n\r\n" + body)
    received = client.recv(65536)
    os.kill(PID, 15)
    time.sleep(3)
    client.settimeout(20)
    while True:
        chunk = client.recv(1 << 20)
        if not chunk:
            break
        received += chunk
    head, _, rest = received.partition(b"\r\n\r\n")
    length = int([line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")][0])
    print(f"large: at SIGTERM, read after 3 s: {len(rest)} of {length} bytes")


def logout(second_port):
    authenticated = 0
    for trial in range(5):
        _, body = post({"query": 'mutation { logIn(username: "demo", password: "playmate-demo") { token } }'})
        token = json.loads(body)["data"]["logIn"]["token"]
        auth = {"Authorization": f"Bearer {token}"}
        post({"query": "{ me { id } }"}, url=f"http://127.0.0.1:{second_port}/graphql", headers=auth)  # cached there
        post({"query": "mutation { logOut }"}, headers=auth)
        _, body = post({"query": "{ me { id } }"}, url=f"http://127.0.0.1:{second_port}/graphql", headers=auth)
        authenticated += json.loads(body)["data"]["me"] is not None
    print(f"logout: {authenticated} of 5 first requests to the other process right after logOut answered as the user")


if __name__ == "__main__":
    scenario = sys.argv[1]
    if scenario == "persisted":
        persisted(int(sys.argv[2]) if len(sys.argv) > 2 else 400)
    elif scenario == "format":
        format_attack()
    elif scenario == "large":
        large()
        in_flight_at_sigterm()
    elif scenario == "logout":
        logout(int(sys.argv[2]))
