"""Python's gql subscribed to one Prolific project's round ends over both
websocket subprotocols at once; the Swift test ends the round while they
listen. Prints one line per subscription; the Swift test compares them.

usage: prolific_client.py PORT TOKEN PROJECT_ID
"""
import sys

from gql import gql

from both_subprotocols import print_first_events

port, token, project_id = sys.argv[1:4]
subscription = gql(
    "subscription($id: ID) { roundEnded(projectId: $id) { round { number } winner { text author { username } } nextRound { number } } }"
)


def describe(event):
    ended = event["roundEnded"]
    return f'{ended["round"]["number"]} "{ended["winner"]["text"]}" by {ended["winner"]["author"]["username"]}, next {ended["nextRound"]["number"]}'


print_first_events(port, token, subscription, describe, variable_values={"id": project_id})
