"""Python's gql subscribed to one Prolific project's round ends over both
websocket subprotocols at once; the Swift test ends the round while they
listen. Prints one line per subscription; the Swift test compares them.

usage: prolific_client.py PORT TOKEN PROJECT_ID
"""
import asyncio
import sys

from gql import Client, gql
from gql.transport.websockets import WebsocketsTransport

port, token, project_id = sys.argv[1:4]
subscription = gql(
    "subscription($id: ID) { roundEnded(projectId: $id) { round { number } winner { text author { username } } nextRound { number } } }"
)


async def first_round_end(subprotocol):
    transport = WebsocketsTransport(
        url=f"ws://127.0.0.1:{port}/graphql", init_payload={"token": token}, subprotocols=[subprotocol]
    )
    async with Client(transport=transport) as session:
        async for event in session.subscribe(subscription, variable_values={"id": project_id}):
            ended = event["roundEnded"]
            return f'{ended["round"]["number"]} "{ended["winner"]["text"]}" by {ended["winner"]["author"]["username"]}, next {ended["nextRound"]["number"]}'


async def main():
    modern, legacy = await asyncio.wait_for(asyncio.gather(
        first_round_end(WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL),
        first_round_end(WebsocketsTransport.APOLLO_SUBPROTOCOL)), 30)
    print("graphql-transport-ws", modern)
    print("graphql-ws", legacy)


asyncio.run(main())
