"""Python's gql as a petMatch app: over HTTP it reads the swipe feed, swipes
right on the first pet and reads its favourites; then it listens for
`favoritePetUpdated` over both websocket subprotocols at once while the
Swift test has the shelter adopt the pet out. Prints one line per check;
the Swift test compares them.

usage: petmatch_client.py PORT TOKEN
"""
import sys

from gql import Client, gql
from gql.transport.requests import RequestsHTTPTransport

from both_subprotocols import print_first_events

port, token = sys.argv[1:3]
http = Client(transport=RequestsHTTPTransport(
    url=f"http://127.0.0.1:{port}/graphql", headers={"Authorization": f"Bearer {token}"}))

feed = http.execute(gql("{ petMatches(first: 5) { emptyReason edges { node { id name shelter { name } } } } }"))
pets = [edge["node"] for edge in feed["petMatches"]["edges"]]
print("feed", ", ".join(f'{pet["name"]} at {pet["shelter"]["name"]}' for pet in pets))
swipe = http.execute(
    gql("mutation($id: ID!) { swipePet(petId: $id, direction: RIGHT) { isFavorite } }"),
    variable_values={"id": pets[0]["id"]})
print("swiped right, favourite:", swipe["swipePet"]["isFavorite"])
favorites = http.execute(gql("{ favoritePets { edges { node { name } } } }"))
print("favourites", ", ".join(edge["node"]["name"] for edge in favorites["favoritePets"]["edges"]))
after = http.execute(gql("{ petMatches(first: 5) { edges { node { name } } } }"))
print("feed after", ", ".join(edge["node"]["name"] for edge in after["petMatches"]["edges"]) or "(empty)")

subscription = gql("subscription { favoritePetUpdated { kind pet { name status } notification { message } } }")


def describe(event):
    update = event["favoritePetUpdated"]
    return f'{update["kind"]} {update["pet"]["name"]} {update["pet"]["status"]}: {update["notification"]["message"]}'


print_first_events(port, token, subscription, describe)
