"""Python's gql as a Habit Buddies app whose user has set a time zone: over
HTTP it picks a habit from the catalogue, checks in today, finds a
buddy among the candidates and swipes right (the other already has, so
they pair); then it listens for `meetingUpdated` over both websocket
subprotocols at once while the Swift test has the buddy propose a meeting.
Prints one line per check; the Swift test compares them.

usage: habitbuddies_client.py PORT TOKEN
"""
import sys

from gql import Client, gql
from gql.transport.requests import RequestsHTTPTransport

from both_subprotocols import print_first_events

port, token = sys.argv[1:3]
http = Client(transport=RequestsHTTPTransport(
    url=f"http://127.0.0.1:{port}/graphql", headers={"Authorization": f"Bearer {token}"}))

catalogue = http.execute(gql("{ habitCatalogue { id name category } }"))["habitCatalogue"]
reading = next(habit for habit in catalogue if habit["name"] == "Read 20 pages")
print("catalogue", len(catalogue), "habits;", reading["name"], reading["category"])
habit = http.execute(
    gql("mutation($input: AddHabitInput!) { addHabit(input: $input) { id name status } }"),
    variable_values={"input": {"catalogueHabitId": reading["id"]}})["addHabit"]
print("added", habit["name"], habit["status"])
checked = http.execute(
    gql("mutation($id: ID!) { checkIn(habitId: $id) { currentStreak checkedInToday } }"),
    variable_values={"id": habit["id"]})["checkIn"]
print("checked in, streak", checked["currentStreak"], "today", checked["checkedInToday"])
found = http.execute(gql(
    "{ buddyCandidates(first: 5) { emptyReason candidates { user { id username } sharedHabits timeZone } } }"))
candidate = found["buddyCandidates"]["candidates"][0]
print("candidate", candidate["user"]["username"], "shares", ", ".join(candidate["sharedHabits"]), "in", candidate["timeZone"])
swiped = http.execute(
    gql("mutation($id: ID!) { swipeBuddy(userId: $id, direction: RIGHT) { buddy { user { username } } } }"),
    variable_values={"id": candidate["user"]["id"]})["swipeBuddy"]
print("buddy", swiped["buddy"]["user"]["username"])
dashboard = http.execute(gql(
    "{ habitDashboard { profile { timeZone buddyCount } habits { name currentStreak } buddies { user { username } } } }"))
board = dashboard["habitDashboard"]
print("dashboard", board["profile"]["timeZone"], board["profile"]["buddyCount"], "buddy;",
      ", ".join(f'{h["name"]} {h["currentStreak"]}' for h in board["habits"]))

subscription = gql("subscription { meetingUpdated { kind meeting { status localStart organizer { username } } } }")


def describe(event):
    update = event["meetingUpdated"]
    meeting = update["meeting"]
    return f'{update["kind"]} {meeting["status"]} by {meeting["organizer"]["username"]} at {meeting["localStart"]}'


print_first_events(port, token, subscription, describe)
