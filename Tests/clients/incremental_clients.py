"""Real clients of Huddle's incremental delivery and GraphQL over SSE.

usage:
  incremental_clients.py ws PORT QUERY
      graphql-transport-ws (Python websockets): prints each `next` payload,
      then `complete`.
  incremental_clients.py sse PORT QUERY [TOKEN]
      A POST with Accept: text/event-stream, read with sseclient-py: prints
      each event's name and data.
  incremental_clients.py eventsource PORT QUERY
      A GET of /graphql/stream?query=..., as a browser's EventSource sends it.
  incremental_clients.py watch PORT QUERY
      A subscription asked for with a GET of /graphql/stream?query=..., as a
      browser's EventSource asks (no headers of its own): prints each event
      until `complete`, or `cut` when the stream ends without one.
  incremental_clients.py subscribe PORT TOKEN SENDER_TOKEN USER_ID
      A subscription over SSE (friendRequestReceived for TOKEN's user); once
      it is open, SENDER_TOKEN's user sends USER_ID a friend request over
      HTTP, and the event that brings is printed."""

import asyncio
import json
import sys
import threading
import urllib.parse

import requests
import sseclient
import websockets

mode, port = sys.argv[1], sys.argv[2]
endpoint = f"http://127.0.0.1:{port}/graphql"


def compact(text):
    return json.dumps(json.loads(text), separators=(",", ":"), ensure_ascii=False)


def print_events(response, limit=None):
    for count, event in enumerate(sseclient.SSEClient(response).events(), start=1):
        print(event.event, compact(event.data) if event.data else "")
        if event.event == "complete" or count == limit:
            break


async def over_websocket(query):
    async with websockets.connect(f"ws://127.0.0.1:{port}/graphql", subprotocols=["graphql-transport-ws"]) as socket:
        await socket.send(json.dumps({"type": "connection_init", "payload": {}}))
        while json.loads(await socket.recv())["type"] != "connection_ack":
            pass
        await socket.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": query}}))
        while True:
            message = json.loads(await socket.recv())
            if message["type"] == "next":
                print("next", json.dumps(message["payload"], separators=(",", ":")))
            elif message["type"] in ("complete", "error"):
                print(message["type"])
                return


if mode == "ws":
    asyncio.run(asyncio.wait_for(over_websocket(sys.argv[3]), 30))
elif mode == "sse":
    headers = {"Accept": "text/event-stream"}
    if len(sys.argv) > 4:
        headers["Authorization"] = "Bearer " + sys.argv[4]
    with requests.post(endpoint, json={"query": sys.argv[3]}, headers=headers, stream=True, timeout=30) as response:
        print(response.status_code, response.headers["Content-Type"])
        print_events(response)
elif mode == "eventsource":
    url = endpoint + "/stream?" + urllib.parse.urlencode({"query": sys.argv[3]})
    with requests.get(url, headers={"Accept": "text/event-stream"}, stream=True, timeout=30) as response:
        print(response.status_code, response.headers["Content-Type"])
        print_events(response)
elif mode == "watch":
    url = endpoint + "/stream?" + urllib.parse.urlencode({"query": sys.argv[3]})
    completed = False
    with requests.get(url, headers={"Accept": "text/event-stream"}, stream=True, timeout=600) as response:
        print(response.status_code, response.headers["Content-Type"], flush=True)
        for event in sseclient.SSEClient(response).events():
            print(event.event, compact(event.data) if event.data else "", flush=True)
            if event.event == "complete":
                completed = True
                break
    if not completed:
        print("cut")
elif mode == "subscribe":
    token, sender, user_id = sys.argv[3], sys.argv[4], sys.argv[5]
    query = "subscription { friendRequestReceived { from { username } to { username } } }"
    headers = {"Accept": "text/event-stream", "Authorization": "Bearer " + token}
    with requests.post(endpoint, json={"query": query}, headers=headers, stream=True, timeout=30) as response:
        print(response.status_code, response.headers["Content-Type"])

        def send():
            mutation = "mutation($id: ID!) { sendFriendRequest(userId: $id) { id } }"
            # Sent once the stream is open; the server's LISTEN may need a moment.
            for _ in range(3):
                sent = requests.post(
                    endpoint, json={"query": mutation, "variables": {"id": user_id}},
                    headers={"Authorization": "Bearer " + sender}, timeout=30).json()
                if "errors" not in sent:
                    return
            print("send failed", sent, file=sys.stderr)

        threading.Timer(0.5, send).start()
        print_events(response, limit=1)
else:
    sys.exit(f"unknown mode {mode}")
