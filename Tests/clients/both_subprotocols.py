"""The first event of one subscription over graphql-transport-ws and the
legacy graphql-ws at once, as the app clients here print it: a line each,
named by the subprotocol."""
import asyncio

from gql import Client
from gql.transport.websockets import WebsocketsTransport


def print_first_events(port, token, subscription, describe, variable_values=None, timeout=300):
    """Subscribes on both subprotocols, waits (at most `timeout` seconds:
    a bound for a hang, not a measure, since a loaded machine running the
    whole suite takes its time) for the first event on each and prints
    `describe(event)` for each."""

    async def first(subprotocol):
        transport = WebsocketsTransport(
            url=f"ws://127.0.0.1:{port}/graphql", init_payload={"token": token}, subprotocols=[subprotocol])
        async with Client(transport=transport) as session:
            async for event in session.subscribe(subscription, variable_values=variable_values):
                return describe(event)

    async def both():
        return await asyncio.wait_for(asyncio.gather(
            first(WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL),
            first(WebsocketsTransport.APOLLO_SUBPROTOCOL)), timeout)

    modern, legacy = asyncio.run(both())
    print("graphql-transport-ws", modern)
    print("graphql-ws", legacy)
