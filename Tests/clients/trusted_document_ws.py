"""Runs a trusted document by its id over WebSocket, on graphql-transport-ws
and on the legacy graphql-ws, as a client holding only the manifest's ids
would: the payload carries {"documentId": ...} and no query. Prints, for each
subprotocol, the type of the first answer and its payload as JSON.

usage: trusted_document_ws.py PORT PAYLOAD_JSON"""

import asyncio
import json
import sys

import websockets

port, payload = sys.argv[1], json.loads(sys.argv[2])


async def run(subprotocol):
    async with websockets.connect(f"ws://127.0.0.1:{port}/graphql", subprotocols=[subprotocol]) as socket:
        await socket.send(json.dumps({"type": "connection_init", "payload": {}}))
        while json.loads(await socket.recv())["type"] != "connection_ack":
            pass
        start = "subscribe" if subprotocol == "graphql-transport-ws" else "start"
        await socket.send(json.dumps({"id": "1", "type": start, "payload": payload}))
        while True:
            message = json.loads(await socket.recv())
            if message["type"] in ("next", "data", "error"):
                return message["type"], message["payload"]


async def main():
    for subprotocol in ("graphql-transport-ws", "graphql-ws"):
        kind, body = await asyncio.wait_for(run(subprotocol), 30)
        print(subprotocol, kind, json.dumps(body, sort_keys=True))


asyncio.run(main())
