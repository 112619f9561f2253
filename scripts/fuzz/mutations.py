"""Property-based fuzzing of every mutation's inputs against a running `huddle serve`
on a database with the demo data (see `scripts/fuzz/run mutations`).

The mutations and their argument types come from the server's introspection.
Hypothesis draws values for every argument by its type, hostile ones weighted in:
strings with NUL and other control characters, lone surrogates' neighbours,
emoji, 10,000-character texts, URLs with spaces, dates at year 0, 9999 and 10000,
instants with offsets past either end, integers and floats at 32-bit and IEEE
edges, global ids of every type, of rows that exist and do not. Each mutation is
sent signed in as a demo user (who may own what the id names, or not).

The properties, for every answer:
  - the HTTP status is 200 (no 5xx, no dropped connection);
  - every error carries an `extensions.code`, and none is INTERNAL_SERVER_ERROR
    (a fault of the server's, not of the input);
  - the server stays up and answers `{ __typename }` after each example.
Failures are printed with the smallest input hypothesis finds, and the run exits 1.
"""
import base64
import json
import os
import sys
import time
import urllib.error
import urllib.request

from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.errors import Unsatisfiable

PORT = int(os.environ["HUDDLE_FUZZ_PORT"])
URL = f"http://127.0.0.1:{PORT}/graphql"
SECONDS = float(os.environ.get("HUDDLE_FUZZ_SECONDS", "300"))


def post(query, variables=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(URL, data=json.dumps({"query": query, "variables": variables or {}}).encode(),
                                     headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


TYPE_REF = "kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } }"
_, SCHEMA = post("{ __schema { mutationType { fields { name type { %s } args { name type { %s } } } } "
                 "types { name kind inputFields { name type { %s } } enumValues { name } } } }" % (TYPE_REF, TYPE_REF, TYPE_REF))
TYPES = {t["name"]: t for t in SCHEMA["data"]["__schema"]["types"]}
MUTATIONS = SCHEMA["data"]["__schema"]["mutationType"]["fields"]
NODE_TYPES = sorted(name for name, t in TYPES.items() if t["kind"] == "OBJECT" and not name.startswith("__"))

hostile_text = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=31), max_size=8),
    st.sampled_from(["kept\u0000lost", "UTC\u0000junk", "demo\u0000junk", "\u0000", "a\u200bb", "🐶🐱", "Ω" * 300,
                     "x" * 10_001, " ", "", "https://example.com/a b.png", "HTTPS://EXAMPLE.COM/X",
                     "javascript:alert(1)", "Europe/Berlin", "Pacific/Pago_Pago", "08:00", "24:00", "23:59",
                     "'; DROP TABLE users; --", "%s%n", "\\", "\"", "NaN"]),
)
dates = st.sampled_from(["0000-01-01", "0001-01-01", "1899-12-31", "2026-02-29", "2028-02-29", "9999-12-31",
                         "10000-01-01", "2026-13-01", "2026-1-1", "today"]) | st.dates().map(lambda d: d.isoformat())
instants = st.sampled_from(["0000-12-31T23:00:00Z", "0001-01-01T00:00:00Z", "0001-01-01T00:30:00+01:00",
                            "9999-12-31T23:59:59.999Z", "9999-12-31T23:30:00-01:00", "2030-01-01T10:00:00+14:00",
                            "2026-12-01T10:00:00", "not a time"]) | st.datetimes().map(lambda d: d.isoformat() + "Z")
ints = st.one_of(st.integers(min_value=-(2 ** 31), max_value=2 ** 31 - 1),
                 st.sampled_from([0, 1, -1, 2 ** 31 - 1, -(2 ** 31), 100, 101, 1000, 10_000]))
floats = st.one_of(st.floats(allow_nan=False, allow_infinity=False),
                   st.sampled_from([0.0, -0.0, 90.0, 90.000001, -180.0, 180.5, 1e308, 5e-324]))


def global_ids():
    return st.builds(lambda kind, row: base64.urlsafe_b64encode(f"{kind}:{row}".encode()).decode().rstrip("="),
                     st.sampled_from(NODE_TYPES), st.one_of(st.integers(min_value=1, max_value=40),
                                                            st.integers(min_value=-5, max_value=2 ** 62))) | hostile_text


def value_for(type_ref, depth=0):
    if type_ref["kind"] == "NON_NULL":
        return value_for(type_ref["ofType"], depth)
    nullable = st.none()
    if type_ref["kind"] == "LIST":
        return nullable | st.lists(value_for(type_ref["ofType"], depth + 1), max_size=4 if depth < 2 else 1)
    name = type_ref["name"]
    scalars = {"String": hostile_text, "ID": global_ids(), "Int": ints, "Float": floats, "Boolean": st.booleans(),
               "Date": dates | hostile_text, "DateTime": instants | hostile_text}
    if name in scalars:
        return nullable | scalars[name]
    definition = TYPES[name]
    if definition["kind"] == "ENUM":
        return nullable | st.sampled_from([v["name"] for v in definition["enumValues"]] + ["NOT_A_VALUE"])
    if definition["kind"] == "INPUT_OBJECT":
        fields = {f["name"]: value_for(f["type"], depth + 1) for f in definition["inputFields"]}
        return nullable | st.fixed_dictionaries({}, optional=fields)
    return nullable | hostile_text


def printed_type(type_ref):
    if type_ref["kind"] == "NON_NULL":
        return printed_type(type_ref["ofType"]) + "!"
    if type_ref["kind"] == "LIST":
        return "[" + printed_type(type_ref["ofType"]) + "]"
    return type_ref["name"]


def sign_in():
    tokens = []
    # The demo account (friends, sessions, a shelter) and two players.
    for username in ["demo", "player2", "player3"]:
        _, answer = post('mutation($u: String!) { logIn(username: $u, password: "playmate-demo") { token } }', {"u": username})
        token = ((answer.get("data") or {}).get("logIn") or {}).get("token")
        if token:
            tokens.append(token)
    return tokens


TOKENS = sign_in()
SKIPPED = {"logOut", "deleteAccount"}  # they end the fuzzing's own sign-in
# By mutation: the last failing input hypothesis tried, its smallest.
failures = {}


def check(mutation, status, answer, variables):
    problems = []
    if status != 200:
        problems.append(f"HTTP {status}")
    for error in answer.get("errors", []):
        code = (error.get("extensions") or {}).get("code")
        if not code:
            problems.append(f"an error without a code: {error.get('message')}")
        elif code == "INTERNAL_SERVER_ERROR":
            problems.append(f"INTERNAL_SERVER_ERROR: {error.get('message')}")
    if problems:
        failures[mutation] = (problems, variables)
    assert not problems, problems


def named_type(type_ref):
    while type_ref["kind"] in ("NON_NULL", "LIST"):
        type_ref = type_ref["ofType"]
    return type_ref["name"]


def fuzz(field, budget):
    arguments = field["args"]
    declared = ", ".join(f"${a['name']}: {printed_type(a['type'])}" for a in arguments)
    passed = ", ".join(f"{a['name']}: ${a['name']}" for a in arguments)
    leaf = TYPES[named_type(field["type"])]["kind"] in ("SCALAR", "ENUM")
    query = (f"mutation{('(' + declared + ')') if declared else ''} "
             f"{{ {field['name']}{('(' + passed + ')') if passed else ''}{'' if leaf else ' { __typename }'} }}")
    strategy = st.fixed_dictionaries({a["name"]: value_for(a["type"]) for a in arguments})

    # Rounds of 25 examples until the mutation's share of the time is spent.
    @settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(variables=strategy, signed_in=st.sampled_from(TOKENS + [None]))
    def run(variables, signed_in):
        status, answer = post(query, variables, signed_in)
        check(field["name"], status, answer, variables)

    found = 0
    while time.time() < budget and found == 0:
        try:
            run()
        except AssertionError:
            found += 1  # shrunk and printed; one finding per mutation is enough to act on
        except Unsatisfiable:
            break


def main():
    mutations = [m for m in MUTATIONS if m["name"] not in SKIPPED]
    started = time.time()
    share = SECONDS / max(1, len(mutations))
    examples = 0
    for index, field in enumerate(mutations):
        budget = started + share * (index + 1)
        before = time.time()
        fuzz(field, budget)
        status, answer = post("{ __typename }")
        assert status == 200 and answer["data"]["__typename"] == "Query", "the server stopped answering"
        print(f"{field['name']}: {time.time() - before:.1f} s", flush=True)
    print(f"{len(mutations)} mutations fuzzed for {time.time() - started:.0f} s; "
          f"{len(failures)} of them failed")
    for mutation, (problems, variables) in failures.items():
        print(f"  {mutation}: {problems[0]} with {json.dumps(variables)[:300]}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
