"""Soak and fault scenarios against a running `huddle serve` (see scripts/soak/run).

Each scenario talks only to 127.0.0.1, bounds its own connections and time,
and prints the figures docs/performance.md's soak and fault tests report:

  subscribers N   N graphql-transport-ws subscribers to one session's updates
                  on one process: memory per connection, and whether every
                  one receives the event a join broadcasts.
  fanout N        N subscribers on raw sockets (fanout.py), so that the
                  client is not what is timed: connect time, memory per
                  connection, delivery of one broadcast, of a burst of 100
                  events, and with half the subscribers viewer-dependent.
  fanout-cluster N  the same through nginx to two processes (scripts/soak/run
                  starts them, one worker each), which hear each event
                  through LISTEN/NOTIFY: resident memory is both processes'.
  slowloris N     N connections that send a header byte a second, while
                  ordinary requests are timed (before and during).
  outage          writes under load while PostgreSQL is stopped and started:
                  the server stays up, every acknowledged write is in the
                  database, subscribers receive events again.
  terminate       writes under load while pg_terminate_backend ends the
                  server's backends mid-transaction: the same checks.
"""
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request

import websockets

PORT = int(os.environ["HUDDLE_SOAK_PORT"])
# One server process, or several (comma-separated) behind a proxy.
PIDS = [int(pid) for pid in os.environ["HUDDLE_SOAK_PID"].split(",")]
PID = PIDS[0]
URL = f"http://127.0.0.1:{PORT}/graphql"
PSQL = os.environ["HUDDLE_SOAK_PSQL"].split()
# A script taking `stop` or `start` for the server's cluster.
PG_CTL = os.environ["HUDDLE_SOAK_PG_CTL"]


def rss_mb():
    """The resident memory of every server process, together."""
    total = 0
    for pid in PIDS:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
    return total


def graphql(query, variables=None, token=None, timeout=30):
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    body = json.dumps({"query": query, "variables": variables or {}}).encode()
    request = urllib.request.Request(URL, data=body, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def sql(statement):
    return subprocess.run(PSQL + ["-At", "-c", statement], check=True, capture_output=True, text=True).stdout.strip()


def log_in(username="demo"):
    _, answer = graphql('mutation { logIn(username: "%s", password: "playmate-demo") { token } }' % username)
    return answer["data"]["logIn"]["token"]


def a_session_id(token):
    _, answer = graphql("{ sportsSessions(first: 1, filter: {hasOpenSpots: true}) { edges { node { id } } } }", token=token)
    return answer["data"]["sportsSessions"]["edges"][0]["node"]["id"]


SUBSCRIPTION = "subscription ($id: ID!) { sessionUpdated(sessionId: $id) { kind sessionId } }"


async def subscriber(session_id, ready, received, deadline):
    async with websockets.connect(f"ws://127.0.0.1:{PORT}/graphql", subprotocols=["graphql-transport-ws"],
                                  open_timeout=60, ping_interval=None, max_queue=None) as ws:
        await ws.send(json.dumps({"type": "connection_init"}))
        assert json.loads(await ws.recv())["type"] == "connection_ack"
        await ws.send(json.dumps({"id": "1", "type": "subscribe",
                                  "payload": {"query": SUBSCRIPTION, "variables": {"id": session_id}}}))
        ready.append(time.monotonic())
        while time.monotonic() < deadline:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic())))
            except asyncio.TimeoutError:
                return
            if message["type"] == "next":
                received.append(time.monotonic())
                return
            if message["type"] == "ping":
                await ws.send(json.dumps({"type": "pong"}))


async def subscribers(count):
    token = log_in()
    session_id = a_session_id(token)
    # The joiner is another player, so the event is a join.
    joiner = log_in("player2")
    graphql("mutation ($id: ID!) { leaveSportsSession(sessionId: $id) { id } }", {"id": session_id}, token=joiner)
    before = rss_mb()
    ready, received = [], []
    deadline = time.monotonic() + 240
    opened = time.monotonic()
    tasks = []
    for index in range(count):
        tasks.append(asyncio.create_task(subscriber(session_id, ready, received, deadline)))
        if index % 200 == 199:
            await asyncio.sleep(0.05)
    while len(ready) < count and time.monotonic() < opened + 180:
        await asyncio.sleep(0.2)
    await asyncio.sleep(2)  # the last subscriptions reach the listener
    connected = time.monotonic() - opened
    during = rss_mb()
    sent = time.monotonic()
    status, answer = await asyncio.to_thread(
        graphql, "mutation ($id: ID!) { joinSportsSession(sessionId: $id) { id } }", {"id": session_id}, joiner)
    while len(received) < len(ready) and time.monotonic() < sent + 60:
        await asyncio.sleep(0.1)
    delays = sorted(moment - sent for moment in received)
    print(f"subscribers: {len(ready)} of {count} subscribed in {connected:.1f} s; "
          f"resident {before:.0f} MB before, {during:.0f} MB with them: "
          f"{(during - before) * 1024 / max(1, len(ready)):.1f} KB per connection")
    print(f"broadcast: join answered {status}; {len(received)} of {len(ready)} received the event; "
          f"delivery p50 {delays[len(delays) // 2] * 1000 if delays else float('nan'):.0f} ms, "
          f"p99 {delays[int(len(delays) * 0.99) - 1] * 1000 if delays else float('nan'):.0f} ms, "
          f"last {delays[-1] * 1000 if delays else float('nan'):.0f} ms")
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return len(received) == len(ready) == count


PERSONAL = "subscription ($id: ID!) { sessionUpdated(sessionId: $id) { kind session { viewerIsPlayer occupied } } }"


def fanout(count):
    """`count` subscribers on raw sockets (scripts/soak/fanout.py): connect
    time and memory per connection; delivery of one broadcast, of a burst
    of 100 events, and of a broadcast where half ask about themselves."""
    import fanout as raw
    token = log_in()
    session_id = a_session_id(token)
    joiner = log_in("player2")
    viewers = [log_in(f"player{n}") for n in range(3, 13)]
    move = ["mutation ($id: ID!) { leaveSportsSession(sessionId: $id) { id } }",
            "mutation ($id: ID!) { joinSportsSession(sessionId: $id) { id } }"]
    graphql(move[0], {"id": session_id}, token=joiner)
    variables = {"id": session_id}
    ok = True

    def subscribe_all(query_of, first_source=0):
        """`first_source` moves the sockets to source addresses of their own:
        the ports of the ones just closed wait out TIME_WAIT."""
        opened = time.monotonic()
        subscribers = [raw.connect(PORT, first_source + index, *query_of(index), variables) for index in range(count)]
        elapsed = time.monotonic() - opened
        time.sleep(2)  # the last subscriptions reach the listener
        return subscribers, elapsed

    def close(subscribers):
        for subscriber in subscribers:
            subscriber.sock.close()
        time.sleep(3)

    before = rss_mb()
    subscribers, connected = subscribe_all(lambda index: (None, SUBSCRIPTION))
    during = rss_mb()
    print(f"fanout: {count} subscribers connected in {connected:.1f} s; resident {before:.0f} MB before, {during:.0f} MB "
          f"with them: {(during - before) * 1024 / count:.1f} KB per connection")

    raw.drain(subscribers)
    started = time.monotonic()
    status, _ = graphql(move[1], variables, token=joiner)
    raw.wait_for(subscribers, 1, started, started + 60)
    got = sum(1 for subscriber in subscribers if subscriber.received >= 1)
    ok = ok and status == 200 and got == count
    print(f"fanout: one broadcast to all, {got} of {count} received it; "
          f"{raw.percentiles([subscriber.times[0] for subscriber in subscribers if subscriber.times])}")

    raw.drain(subscribers)
    for subscriber in subscribers:
        subscriber.received, subscriber.times = 0, []
    started = time.monotonic()
    sent = []
    for turn in range(100):
        sent.append(time.monotonic() - started)
        graphql(move[turn % 2], variables, token=joiner)
    raw.wait_for(subscribers, 100, started, started + 120)
    whole = sum(1 for subscriber in subscribers if subscriber.received >= 100)
    delays = [arrived - sent[turn] for subscriber in subscribers for turn, arrived in enumerate(subscriber.times[:100])]
    ok = ok and whole == count
    print(f"fanout: a burst of 100 events ({sent[-1]:.1f} s of mutations), {whole} of {count} received all 100 "
          f"(the last at {max((subscriber.times[-1] for subscriber in subscribers if subscriber.times), default=0):.1f} s); "
          f"each event after its mutation: {raw.percentiles(delays)}")
    close(subscribers)

    # Half ask about themselves, as one of ten users each.
    subscribers, connected = subscribe_all(
        lambda index: (viewers[index % len(viewers)], PERSONAL) if index % 2 else (None, SUBSCRIPTION),
        first_source=(count // raw.PER_SOURCE + 1) * raw.PER_SOURCE)
    raw.drain(subscribers)
    started = time.monotonic()
    status, _ = graphql(move[0], variables, token=joiner)
    raw.wait_for(subscribers, 1, started, started + 60)
    got = sum(1 for subscriber in subscribers if subscriber.received >= 1)
    ok = ok and status == 200 and got == count
    print(f"fanout: mixed, half viewer-dependent (10 viewers), connected in {connected:.1f} s, {got} of {count} received "
          f"the broadcast; {raw.percentiles([subscriber.times[0] for subscriber in subscribers if subscriber.times])}")
    close(subscribers)
    return ok


def timed_requests(count):
    times = []
    for _ in range(count):
        started = time.monotonic()
        status, _ = graphql("{ sportsSessions(first: 5) { edges { node { id sport } } } }")
        times.append((time.monotonic() - started) * 1000)
        assert status == 200
    times.sort()
    return times[len(times) // 2], times[int(len(times) * 0.99) - 1]


def slowloris(count):
    base = timed_requests(200)
    sockets = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", PORT))
        connection.setblocking(False)
        connection.send(b"GET /healthz HTTP/1.1\r\nHost: a\r\nX-Slow: ")
        sockets.append(connection)
    started = time.monotonic()
    during = []
    closed = 0
    # A byte a second from each, for 15 s, timing ordinary requests meanwhile.
    while time.monotonic() < started + 15:
        for connection in sockets:
            try:
                connection.send(b"a")
            except (BrokenPipeError, ConnectionResetError, BlockingIOError):
                pass
        tick = time.monotonic()
        while time.monotonic() < tick + 1:
            s0 = time.monotonic()
            status, _ = graphql("{ sportsSessions(first: 5) { edges { node { id sport } } } }")
            assert status == 200
            during.append((time.monotonic() - s0) * 1000)
    for connection in sockets:
        try:
            connection.recv(4096)  # b"" when closed, else the 408 before the close
            closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
    during.sort()
    print(f"slowloris: {count} connections a byte a second for 15 s; ordinary requests p50/p99 "
          f"{base[0]:.1f}/{base[1]:.1f} ms before, {during[len(during) // 2]:.1f}/{during[int(len(during) * 0.99) - 1]:.1f} ms "
          f"during ({len(during)} requests); {closed} of {count} slow connections answered or closed by the server "
          f"(header timeout 10 s)")
    for connection in sockets:
        connection.close()
    return True


CREATE = """mutation ($at: DateTime!) { createSportsSession(input: {sport: TENNIS, skillLevel: ANY, occursAt: $at,
  durationMinutes: 60, capacity: 4, location: {new: {name: "Soak Court", latitude: 40.7, longitude: -74.0}}}) { id } }"""


async def writer(token, acknowledged, failures, stop):
    while not stop.is_set():
        at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 86400 * 30))
        try:
            status, answer = await asyncio.to_thread(graphql, CREATE, {"at": at}, token, 20)
        except Exception as error:  # a refused connection during a restart is a failure, not a crash
            failures.append(type(error).__name__)
            await asyncio.sleep(0.05)
            continue
        if status == 200 and answer.get("data") and answer["data"].get("createSportsSession"):
            acknowledged.append(answer["data"]["createSportsSession"]["id"])
        else:
            failures.append((answer.get("errors") or [{}])[0].get("extensions", {}).get("code", str(status)))
            await asyncio.sleep(0.05)


def check_writes(acknowledged):
    """Every acknowledged session is in the database with its creator as its one player."""
    import base64
    ids = [base64.b64decode(i + "=" * (-len(i) % 4)).decode().split(":")[1] for i in acknowledged]
    present = int(sql(f"SELECT count(*) FROM sports_sessions WHERE id IN ({','.join(ids) or 'NULL'})"))
    # Nothing half-written: every session's count of players matches its players.
    torn = int(sql("SELECT count(*) FROM sports_sessions s WHERE occupied <> (SELECT count(*) FROM session_players p WHERE p.session_id = s.id)"))
    return present, torn


async def faults(kind):
    token = log_in()
    session_id = a_session_id(token)
    joiner = log_in("player3")
    acknowledged, failures = [], []
    stop = asyncio.Event()
    writers = [asyncio.create_task(writer(token, acknowledged, failures, stop)) for _ in range(8)]
    await asyncio.sleep(3)
    if kind == "outage":
        subprocess.run([PG_CTL, "stop"], check=True, capture_output=True)
        await asyncio.sleep(3)
        down_status, down_answer = await asyncio.to_thread(graphql, "{ me { username } }", None, token, 20)
        subprocess.run([PG_CTL, "start"], check=True, capture_output=True)
        note = f"with PostgreSQL stopped a signed-in request got {down_status} {json.dumps((down_answer.get('errors') or [{}])[0].get('extensions'))}"
    else:
        killed = in_transaction = 0
        end = time.monotonic() + 6
        while time.monotonic() < end:
            # Every backend of the server's (its pools' and its LISTEN connection), in a transaction or not.
            row = await asyncio.to_thread(sql, "SELECT count(*), count(*) FILTER (WHERE xact_start IS NOT NULL) FROM "
                                          "(SELECT pg_terminate_backend(pid), xact_start FROM pg_stat_activity "
                                          "WHERE application_name = 'huddle' AND pid <> pg_backend_pid()) AS ended")
            total, busy = (int(part) for part in row.split("|"))
            killed += total
            in_transaction += busy
            await asyncio.sleep(0.1)
        note = f"{killed} backends terminated, {in_transaction} of them mid-transaction"
    await asyncio.sleep(4)
    stop.set()
    await asyncio.gather(*writers)
    # Subscribers hear events again once the database is back.
    ready, received = [], []
    deadline = time.monotonic() + 30
    subscribers = [asyncio.create_task(subscriber(session_id, ready, received, deadline)) for _ in range(20)]
    while len(ready) < 20 and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    await asyncio.sleep(1)
    await asyncio.to_thread(graphql, "mutation ($id: ID!) { joinSportsSession(sessionId: $id) { id } }", {"id": session_id}, joiner)
    await asyncio.gather(*subscribers, return_exceptions=True)
    alive = os.path.exists(f"/proc/{PID}")
    present, torn = check_writes(acknowledged)
    codes = {}
    for failure in failures:
        codes[failure] = codes.get(failure, 0) + 1
    print(f"{kind}: {note}; server {'up' if alive else 'GONE'}; {len(acknowledged)} writes acknowledged, "
          f"{present} of them in the database, {torn} sessions half-written; failed writes by code: {codes}; "
          f"{len(received)} of {len(ready)} subscribers received an event afterwards")
    return alive and present == len(acknowledged) and torn == 0 and len(received) == len(ready) == 20


def main():
    scenario = sys.argv[1]
    if scenario == "subscribers":
        ok = asyncio.run(subscribers(int(sys.argv[2]) if len(sys.argv) > 2 else 5000))
    elif scenario in ("fanout", "fanout-cluster"):
        ok = fanout(int(sys.argv[2]) if len(sys.argv) > 2 else 10000)
    elif scenario == "slowloris":
        ok = slowloris(int(sys.argv[2]) if len(sys.argv) > 2 else 2000)
    elif scenario in ("outage", "terminate"):
        ok = asyncio.run(faults(scenario))
    else:
        sys.exit(f"unknown scenario {scenario}")
    print(f"{scenario}: {'passed' if ok else 'FAILED'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
