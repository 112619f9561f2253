"""Python's gql against a running `huddle serve`: a query over HTTP, then a
subscription over each websocket subprotocol, fed by a mutation made while
it listens. Prints one line per check; the Swift test compares them.

usage: gql_client.py PORT SUBSCRIBER_TOKEN SENDER_TOKEN SUBSCRIBER_ID
"""
import asyncio
import sys

from gql import Client, gql
from gql.transport.requests import RequestsHTTPTransport
from gql.transport.websockets import WebsocketsTransport

port, subscriber_token, sender_token, subscriber_id = sys.argv[1:5]
http_url = f"http://127.0.0.1:{port}/graphql"


def http_client(token):
    return Client(transport=RequestsHTTPTransport(url=http_url, headers={"Authorization": f"Bearer {token}"}))


me = http_client(subscriber_token).execute(gql("{ me { username } }"))
print("http", me["me"]["username"])


async def subscribe(subprotocol, mutation):
    transport = WebsocketsTransport(
        url=f"ws://127.0.0.1:{port}/graphql", init_payload={"token": subscriber_token}, subprotocols=[subprotocol]
    )
    async with Client(transport=transport) as session:
        async def trigger():
            await asyncio.sleep(1.5)
            await asyncio.get_running_loop().run_in_executor(None, lambda: http_client(sender_token).execute(gql(mutation)))

        task = asyncio.create_task(trigger())
        async for event in session.subscribe(gql("subscription { friendRequestReceived { from { username } } }")):
            await task
            return event["friendRequestReceived"]["from"]["username"]


first = asyncio.run(asyncio.wait_for(subscribe(
    WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL, f'mutation {{ sendFriendRequest(userId: "{subscriber_id}") {{ id }} }}'), 20))
print("graphql-transport-ws", first)
# The same request again would be a duplicate: cancel it, then send it anew.
requests = http_client(subscriber_token).execute(gql("{ incomingFriendRequests { edges { node { id } } } }"))
request_id = requests["incomingFriendRequests"]["edges"][0]["node"]["id"]
http_client(sender_token).execute(gql(f'mutation {{ cancelFriendRequest(requestId: "{request_id}") }}'))
second = asyncio.run(asyncio.wait_for(subscribe(
    WebsocketsTransport.APOLLO_SUBPROTOCOL, f'mutation {{ sendFriendRequest(userId: "{subscriber_id}") {{ id }} }}'), 20))
print("graphql-ws", second)
