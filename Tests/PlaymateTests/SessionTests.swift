import Foundation
import HuddlePostgres
import HuddleRuntime
import Playmate
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Sports sessions over HTTP: creating, joining under contention, leaving,
/// deleting, searching and paging.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct SessionTests {
    static let create = """
        mutation($input: CreateSportsSessionInput!) { createSportsSession(input: $input) {
          id sport skillLevel occursAt durationMinutes capacity occupied openSpots creator { username } players { username } location { id name } } }
        """

    static func input(sport: String = "TENNIS", in hours: Double = 48, capacity: Int = 4, location: [String: any Sendable]? = nil)
        -> [String: any Sendable]
    {
        let occursAt = ISO8601DateFormatter().string(from: Date().addingTimeInterval(hours * 3600))
        return [
            "input": [
                "sport": sport, "skillLevel": "INTERMEDIATE", "occursAt": occursAt, "durationMinutes": 90, "capacity": capacity,
                "location": location ?? [
                    "new": ["name": "Central Park Courts", "latitude": 40.78, "longitude": -73.96] as [String: any Sendable]
                ],
            ] as [String: any Sendable]
        ]
    }

    @Test func createJoinLeaveAndDelete() async throws {
        try await TestServer.with(mounting: [Playmate.self]) { server in
            let ana = try await server.signUp("ana")
            let bob = try await server.signUp("bob")
            let created = try await server.graphql(Self.create, Self.input(), token: ana.token)
            let session = created["data"]["createSportsSession"]
            #expect(session["occupied"].int == 1, "\(created)")
            #expect(session["players"][0]["username"].string == "ana")
            #expect(session["location"]["name"].string == "Central Park Courts")
            let id = try #require(session["id"].string)

            let joined = try await server.graphql(
                "mutation($id: ID!) { joinSportsSession(sessionId: $id) { occupied viewerIsPlayer players { username } } }",
                ["id": id], token: bob.token)
            #expect(joined["data"]["joinSportsSession"]["occupied"].int == 2)
            #expect(joined["data"]["joinSportsSession"]["viewerIsPlayer"].bool == true)
            let again = try await server.graphql(
                "mutation($id: ID!) { joinSportsSession(sessionId: $id) { occupied } }", ["id": id], token: bob.token)
            #expect(again.errorMessage == "You are in this session already.")

            // Nobody else deletes your session; the creator may not leave it.
            let stolen = try await server.graphql(
                "mutation($id: ID!) { deleteSportsSession(sessionId: $id) }", ["id": id], token: bob.token)
            #expect(stolen.errorCode == "FORBIDDEN")
            let creatorLeaves = try await server.graphql(
                "mutation($id: ID!) { leaveSportsSession(sessionId: $id) { occupied } }", ["id": id], token: ana.token)
            #expect(creatorLeaves.errorCode == "BAD_USER_INPUT")

            let left = try await server.graphql(
                "mutation($id: ID!) { leaveSportsSession(sessionId: $id) { occupied } }", ["id": id], token: bob.token)
            #expect(left["data"]["leaveSportsSession"]["occupied"].int == 1)
            _ = try await server.graphql(
                "mutation($id: ID!) { joinSportsSession(sessionId: $id) { occupied } }", ["id": id], token: bob.token)

            // Once started, a session stays: it is its players' history.
            _ = try await server.sql("UPDATE sports_sessions SET occurs_at = now() - interval '1 hour' WHERE id = $1", [rowID(id)])
            let started = try await server.graphql(
                "mutation($id: ID!) { deleteSportsSession(sessionId: $id) }", ["id": id], token: ana.token)
            #expect(started.errorCode == "BAD_USER_INPUT" && started.errorMessage?.contains("started already") == true, "\(started)")
            #expect(try await server.sql("SELECT count(*)::int FROM sports_sessions")[0].decode(Int.self, at: 0) == 1)
            let occursAt = try await server.sql(
                "UPDATE sports_sessions SET occurs_at = now() + interval '2 days' WHERE id = $1 RETURNING occurs_at", [rowID(id)])[0]
                .decode(
                    Date.self, at: 0)

            // Deleting tells the players.
            let deleted = try await server.graphql(
                "mutation($id: ID!) { deleteSportsSession(sessionId: $id) }", ["id": id], token: ana.token)
            #expect(deleted["data"]["deleteSportsSession"].string == id)
            #expect(
                try await server.graphql("query($id: ID!) { sportsSession(id: $id) { id } }", ["id": id])["data"]["sportsSession"].isNull)
            let notices = try await server.sql(
                "SELECT kind, message FROM notifications WHERE user_id = (SELECT id FROM users WHERE username = 'bob')")
            #expect(notices.count == 1)
            #expect(try notices[0].decode(String.self, at: 0) == "SESSION_DELETED")
            let said = try notices[0].decode(String.self, at: 1)
            // In UTC, since Bob never said his zone.
            #expect(
                SessionReminderTests.readerTimes(occursAt, zone: "UTC").contains {
                    said == "ana called off the tennis session at Central Park Courts \($0)."
                }, "\(said)")
        }
    }

    @Test func badSessionsAreRefusedAndChangeNothing() async throws {
        try await TestServer.with(mounting: [Playmate.self]) { server in
            let ana = try await server.signUp("ana")
            var cases: [([String: any Sendable], String)] = []
            func with(_ change: (inout [String: any Sendable]) -> Void) -> [String: any Sendable] {
                var input = Self.input()["input"] as! [String: any Sendable]
                change(&input)
                return ["input": input]
            }
            cases.append((Self.input(in: -1), "\"occursAt\" must be in the future."))
            cases.append((Self.input(capacity: -3), "\"capacity\" must be between 2 and 100, the creator included."))
            cases.append((Self.input(capacity: 101), "\"capacity\" must be between 2 and 100, the creator included."))
            cases.append((with { $0["durationMinutes"] = 1441 }, "\"durationMinutes\" must be between 1 and 1440."))
            cases.append(
                (Self.input(location: ["id": "not-an-id"]), "Argument \"input.location.id\" is not a valid Location id: \"not-an-id\"."))
            cases.append(
                (
                    Self.input(location: [
                        "new": ["name": String(repeating: "n", count: 201), "latitude": 1.0, "longitude": 1.0] as [String: any Sendable]
                    ]),
                    "A location's name is 1 to 200 characters."
                ))
            for (input, message) in cases {
                let reply = try await server.graphql(Self.create, input, token: ana.token)
                #expect(reply.errorCode == "BAD_USER_INPUT", "\(message)")
                #expect(reply.errorMessage == message)
            }
            // At the limits: capacity 100, 1440 minutes.
            let atLimit = try await server.graphql(
                Self.create,
                with {
                    $0["capacity"] = 100
                    $0["durationMinutes"] = 1440
                }, token: ana.token)
            #expect(atLimit["data"]["createSportsSession"]["capacity"].int == 100)
            let unknownLocation = try await server.graphql(
                Self.create, Self.input(location: ["id": "TG9jYXRpb246OTk5OQ"]), token: ana.token)
            #expect(unknownLocation.errorCode == "NOT_FOUND")
            let anonymous = try await server.graphql(Self.create, Self.input())
            #expect(anonymous.errorCode == "UNAUTHENTICATED")
            #expect(try await server.sql("SELECT count(*)::int FROM sports_sessions")[0].decode(Int.self, at: 0) == 1)
            #expect(try await server.sql("SELECT count(*)::int FROM locations")[0].decode(Int.self, at: 0) == 1)
            let malformed = try await server.graphql("mutation { joinSportsSession(sessionId: \"!!\") { id } }", token: ana.token)
            #expect(malformed.errorCode == "BAD_USER_INPUT")
        }
    }

    /// 50 players join a session with room for 9 more at once: exactly 9 get in.
    @Test func concurrentJoinsNeverOverfillASession() async throws {
        try await TestServer.with(mounting: [Playmate.self], workers: 2) { server in
            let creator = try await server.signUp("creator")
            let created = try await server.graphql(Self.create, Self.input(capacity: 10), token: creator.token)
            let id = try #require(created["data"]["createSportsSession"]["id"].string)
            let players = try await server.makeUsers(50, prefix: "player")
            let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
                for player in players {
                    group.addTask {
                        let reply = try await server.graphql(
                            "mutation($id: ID!) { joinSportsSession(sessionId: $id) { occupied } }", ["id": id], token: player.token)
                        return reply["data"]["joinSportsSession"].isNull ? (reply.errorMessage ?? "?") : "joined"
                    }
                }
                return try await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
            }
            #expect(outcomes == ["joined": 9, "This session is full.": 41])
            let final = try await server.graphql(
                "query($id: ID!) { sportsSession(id: $id) { occupied capacity players { id } } }", ["id": id])
            #expect(final["data"]["sportsSession"]["occupied"].int == 10)
            #expect(final["data"]["sportsSession"]["players"].array.count == 10)
            // The ids the session row keeps for its players are its players.
            let kept = try await server.sql(
                """
                SELECT ARRAY(SELECT x FROM unnest(s.player_ids) AS x ORDER BY x)
                       = ARRAY(SELECT p.user_id FROM session_players p WHERE p.session_id = s.id ORDER BY p.user_id)
                FROM sports_sessions s
                """)
            #expect(try kept.map { try $0.decode(Bool.self, at: 0) } == [true])
        }
    }

    /// A page of sessions brings its creators and locations along (outer
    /// joins in the page's statement, primed into their loaders): a page of
    /// any length costs the page and its players' statement, and each node
    /// is what the loaders answer for the session asked alone.
    @Test func aPageBringsItsCreatorsAndLocationsAlong() async throws {
        try await TestServer.with(mounting: [Playmate.self]) { server in
            let ana = try await server.signUp("ana")
            let bob = try await server.signUp("bob")
            let park = ["new": ["name": "Prospect Park", "latitude": 40.66, "longitude": -73.97] as [String: any Sendable]]
            var ids: [String] = []
            for (token, hours, location) in [(ana.token, 30.0, nil), (ana.token, 40, park), (bob.token, 50, nil)] {
                let created = try await server.graphql(Self.create, Self.input(in: hours, location: location), token: token)
                ids.append(try #require(created["data"]["createSportsSession"]["id"].string, "\(created)"))
            }
            // A player who created none of them: the players' statement reads her.
            let cleo = try await server.signUp("cleo")
            for player in [bob, cleo] {
                _ = try await server.graphql(
                    "mutation($id: ID!) { joinSportsSession(sessionId: $id) { occupied } }", ["id": ids[0]], token: player.token)
            }
            let node = "id creator { id username firstName lastName } players { username } location { id name latitude longitude }"
            // The least of three: a statement still finishing from before can only add to a count.
            func statements(_ query: String) async throws -> (Int, JSON) {
                var counts: [Int] = []
                var replies: [JSON] = []
                for _ in 0..<3 {
                    let before = try await server.statementCount()
                    replies.append(try await server.graphql(query))
                    counts.append(try await server.statementCount() - before)
                }
                return (counts.min()!, replies[0])
            }
            /// Each node of a page is what the loaders answer for its session
            /// asked alone (its distance aside, which only a search near a point has).
            func expectEachNodeAsAlone(_ page: JSON, _ selection: String, count: Int, distanceToo: Bool = false) async throws {
                #expect(page.errorMessage == nil, "\(page)")
                let edges = page["data"]["sportsSessions"]["edges"].array
                #expect(edges.count == count, "\(page)")
                let alone = selection.replacingOccurrences(of: "distanceKm ", with: "")
                for edge in edges {
                    var node = edge["node"]
                    if distanceToo, case .object(var members) = node {
                        #expect(members["distanceKm"]?.double != nil, "\(page)")
                        members["distanceKm"] = nil
                        node = .object(members)
                    }
                    let reply = try await server.graphql(
                        "query($id: ID!) { sportsSession(id: $id) { \(alone) } }", ["id": edge["node"]["id"].string ?? ""])
                    #expect(reply["data"]["sportsSession"] == node, "\(reply)")
                }
            }
            let (feedStatements, feed) = try await statements("{ sportsSessions(first: 10) { edges { cursor node { \(node) } } } }")
            #expect(feedStatements == 2, "\(feed)")
            let edges = feed["data"]["sportsSessions"]["edges"].array
            #expect(edges.map { $0["node"]["id"].string } == ids)
            #expect(edges.map { $0["node"]["creator"]["username"].string } == ["ana", "ana", "bob"])
            #expect(edges.map { $0["node"]["location"]["name"].string } == ["Central Park Courts", "Prospect Park", "Central Park Courts"])
            for edge in edges {
                let alone = try await server.graphql(
                    "query($id: ID!) { sportsSession(id: $id) { \(node) } }", ["id": edge["node"]["id"].string ?? ""])
                #expect(alone["data"]["sportsSession"] == edge["node"], "\(alone)")
            }
            // A creator asked for more than names is joined whole; the players' own statement is left.
            let wholeNode = "id creator { id username biography createdAt gender } location { id name }"
            let (wholeStatements, whole) = try await statements("{ sportsSessions(first: 10) { edges { node { \(wholeNode) } } } }")
            #expect(wholeStatements == 1, "\(whole)")
            try await expectEachNodeAsAlone(whole, wholeNode, count: 3)
            // Names joined for the creator do not answer the players' whole rows: those are read on their own.
            let (mixedStatements, mixed) = try await statements(
                "{ sportsSessions(first: 10) { edges { node { creator { username } players { username biography } } } } }")
            #expect(mixedStatements == 2, "\(mixed)")
            #expect(mixed.errorMessage == nil, "\(mixed)")
            #expect(
                mixed["data"]["sportsSessions"]["edges"][0]["node"]["players"].array.map { $0["username"].string } == [
                    "ana", "bob", "cleo",
                ])
            // Cleo, who created none, is read by the players' statement; a
            // page whose players all created sessions in it needs none.
            let (creatorsStatements, creators) = try await statements(
                "{ sportsSessions(first: 10) { edges { node { creator { username } players { username } } } } }")
            #expect(creatorsStatements == 2, "\(creators)")
            let (laterStatements, later) = try await statements(
                "{ sportsSessions(first: 2, after: \"\(edges[0]["cursor"].string ?? "")\") { edges { node { creator { username } players { username } } } } }"
            )
            #expect(laterStatements == 1, "\(later)")
            // Backwards; and near a point, forwards and backwards, by distance
            // (a column more before the joined ones) and by time: the page is
            // cut first and its creators and places joined after.
            func pageIDs(_ page: JSON) -> [String?] { page["data"]["sportsSessions"]["edges"].array.map { $0["node"]["id"].string } }
            let (lastStatements, last) = try await statements("{ sportsSessions(last: 2) { edges { node { \(wholeNode) } } } }")
            #expect(lastStatements == 1, "\(last)")
            #expect(pageIDs(last) == ids[1...].map { $0 }, "\(last)")
            try await expectEachNodeAsAlone(last, wholeNode, count: 2)
            let reach = "near: {latitude: 40.7, longitude: -73.9, radiusKm: 50}"
            // Prospect Park is nearest; the two Central Park sessions are as near as each other, then by id.
            let nearest = [ids[1], ids[0], ids[2]]
            for (arguments, expected) in [
                ("first: 10, filter: {\(reach)}, orderBy: DISTANCE", nearest),
                ("last: 2, filter: {\(reach)}, orderBy: DISTANCE", Array(nearest[1...])),
                ("first: 10, filter: {\(reach)}", ids),
                ("last: 2, filter: {\(reach)}", Array(ids[1...])),
            ] {
                let (count, page) = try await statements("{ sportsSessions(\(arguments)) { edges { node { distanceKm \(wholeNode) } } } }")
                #expect(count == 1, "\(arguments): \(page)")
                #expect(pageIDs(page) == expected.map { $0 }, "\(arguments): \(page)")
                try await expectEachNodeAsAlone(page, "distanceKm " + wholeNode, count: expected.count, distanceToo: true)
            }
            let (_, firstNear) = try await statements(
                "{ sportsSessions(first: 1, filter: {\(reach)}, orderBy: DISTANCE) { edges { cursor } } }")
            let cursor = firstNear["data"]["sportsSessions"]["edges"][0]["cursor"].string ?? ""
            let (afterStatements, afterNear) = try await statements(
                """
                { sportsSessions(first: 10, after: "\(cursor)", filter: {\(reach)}, orderBy: DISTANCE) {
                  edges { node { id creator { username } location { latitude } } } } }
                """)
            #expect(afterStatements == 1, "\(afterNear)")
            #expect(pageIDs(afterNear) == [ids[0], ids[2]], "\(afterNear)")
            let afterEdges = afterNear["data"]["sportsSessions"]["edges"].array
            #expect(afterEdges.map { $0["node"]["creator"]["username"].string } == ["ana", "bob"], "\(afterNear)")
            #expect(afterEdges.map { $0["node"]["location"]["latitude"].double } == [40.78, 40.78], "\(afterNear)")
        }
    }

    /// A session's people are read with the columns their selection needs:
    /// names only, or whole rows as soon as a field needs more.
    @Test func peopleAreReadWithTheColumnsTheirSelectionNeeds() async throws {
        try await TestServer.with(mounting: [Playmate.self]) { server in
            let creator = try await server.signUp("creator")
            let created = try await server.graphql(Self.create, Self.input(capacity: 5), token: creator.token)
            let id = try #require(created["data"]["createSportsSession"]["id"].string)
            let names = try await server.graphql(
                "query($id: ID!) { sportsSession(id: $id) { creator { __typename id username firstName lastName } players { username } } }",
                ["id": id])
            #expect(names.errorMessage == nil)
            #expect(names["data"]["sportsSession"]["players"].array.map { $0["username"].string } == ["creator"])
            let more = try await server.graphql(
                """
                query($id: ID!, $more: Boolean!) { sportsSession(id: $id) {
                  creator { username biography createdAt } players { username ...More } } }
                fragment More on User { gender @include(if: $more) profileImageUrl @include(if: $more) }
                """,
                ["id": id, "more": true])
            #expect(more.errorMessage == nil, "\(more)")
            #expect(more["data"]["sportsSession"]["creator"]["createdAt"].string != nil)
            #expect(more["data"]["sportsSession"]["players"].array.first?["gender"].isNull == true)
        }
    }

    /// The player ids a session row keeps follow joins, leaves and deleted sessions, and cannot disagree with `occupied`.
    @Test func aSessionsPlayerIdsFollowItsPlayers() async throws {
        try await TestServer.with(mounting: [Playmate.self]) { server in
            let creator = try await server.signUp("creator")
            let created = try await server.graphql(Self.create, Self.input(capacity: 5), token: creator.token)
            let id = try #require(created["data"]["createSportsSession"]["id"].string)
            let players = try await server.makeUsers(3, prefix: "player")
            for player in players {
                _ = try await server.graphql(
                    "mutation($id: ID!) { joinSportsSession(sessionId: $id) { id } }", ["id": id], token: player.token)
            }
            _ = try await server.graphql(
                "mutation($id: ID!) { leaveSportsSession(sessionId: $id) { id } }", ["id": id], token: players[1].token)
            let shown = try await server.graphql("query($id: ID!) { sportsSession(id: $id) { occupied players { username } } }", ["id": id])
            #expect(shown["data"]["sportsSession"]["players"].array.map { $0["username"].string } == ["creator", "player0", "player2"])
            #expect(shown["data"]["sportsSession"]["occupied"].int == 3)
            let rows = try await server.sql("SELECT cardinality(player_ids), occupied FROM sports_sessions")
            #expect(try rows[0].decode(Int.self, at: 0) == 3)
            #expect(try rows[0].decode(Int.self, at: 1) == 3)
            await #expect(throws: PostgresError.self) {
                _ = try await server.sql("UPDATE sports_sessions SET player_ids = '{}'")
            }
            _ = try await server.graphql("mutation($id: ID!) { deleteSportsSession(sessionId: $id) }", ["id": id], token: creator.token)
            #expect(try await server.sql("SELECT count(*)::int FROM session_players")[0].decode(Int.self, at: 0) == 0)
        }
    }

    @Test func searchFiltersSortsAndPages() async throws {
        try await TestServer.with(mounting: [Playmate.self]) { server in
            let ana = try await server.signUp("ana")
            // Three places: Manhattan, Brooklyn (about 8 km away), Philadelphia (about 130 km).
            let places: [(String, Double, Double)] = [
                ("Manhattan", 40.7831, -73.9712), ("Brooklyn", 40.6782, -73.9442), ("Philadelphia", 39.9526, -75.1652),
            ]
            var ids: [String: String] = [:]
            for (index, place) in places.enumerated() {
                for (offset, sport) in ["TENNIS", "SOCCER"].enumerated() {
                    let reply = try await server.graphql(
                        Self.create,
                        Self.input(
                            sport: sport, in: Double(24 + index * 10 + offset), capacity: 2 + index,
                            location: ["new": ["name": place.0, "latitude": place.1, "longitude": place.2] as [String: any Sendable]]),
                        token: ana.token)
                    ids["\(place.0)-\(sport)"] = reply["data"]["createSportsSession"]["id"].string
                }
            }
            let near = """
                query($first: Int, $after: String, $order: SportsSessionOrder) {
                  sportsSessions(first: $first, after: $after, orderBy: $order,
                    filter: {sports: [TENNIS], near: {latitude: 40.7831, longitude: -73.9712, radiusKm: 20}}) {
                    edges { cursor node { id distanceKm location { name } } } pageInfo { hasNextPage hasPreviousPage endCursor } } }
                """
            let nearby = try await server.graphql(near, ["order": "DISTANCE"])
            let edges = nearby["data"]["sportsSessions"]["edges"].array
            #expect(edges.map { $0["node"]["location"]["name"].string } == ["Manhattan", "Brooklyn"], "\(nearby)")
            #expect(edges[0]["node"]["distanceKm"].double ?? -1 < 0.01)
            #expect((11.0...13.0).contains(edges[1]["node"]["distanceKm"].double ?? 0))

            // Paging one by one over everything, soonest first.
            var seen: [String] = []
            var after: String? = nil
            repeat {
                var variables: [String: any Sendable] = ["first": 1]
                if let after { variables["after"] = after }
                let page = try await server.graphql(
                    "query($first: Int, $after: String) { sportsSessions(first: $first, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } } }",
                    variables)
                seen += page["data"]["sportsSessions"]["edges"].array.compactMap { $0["node"]["id"].string }
                after =
                    page["data"]["sportsSessions"]["pageInfo"]["hasNextPage"].bool == true
                    ? page["data"]["sportsSessions"]["pageInfo"]["endCursor"].string : nil
            } while after != nil
            #expect(
                seen
                    == [
                        "Manhattan-TENNIS", "Manhattan-SOCCER", "Brooklyn-TENNIS", "Brooklyn-SOCCER", "Philadelphia-TENNIS",
                        "Philadelphia-SOCCER",
                    ].map { ids[$0] })

            // Backwards from the end.
            let last = try await server.graphql(
                "{ sportsSessions(last: 2) { edges { node { id } } pageInfo { hasPreviousPage hasNextPage } } }")
            #expect(
                last["data"]["sportsSessions"]["edges"].array.map { $0["node"]["id"].string } == [
                    ids["Philadelphia-TENNIS"], ids["Philadelphia-SOCCER"],
                ])
            #expect(last["data"]["sportsSessions"]["pageInfo"]["hasPreviousPage"].bool == true)

            // Filters: open spots, skill level, a date range.
            let soccer = try await server.graphql(
                "{ sportsSessions(filter: {sports: [SOCCER], skillLevels: [BEGINNER]}) { edges { node { id } } } }")
            #expect(soccer["data"]["sportsSessions"]["edges"].array.isEmpty)
            let window = try await server.graphql(
                "query($to: DateTime) { sportsSessions(filter: {to: $to}) { edges { node { id } } } }",
                ["to": ISO8601DateFormatter().string(from: Date().addingTimeInterval(30 * 3600))])
            #expect(window["data"]["sportsSessions"]["edges"].array.count == 2)

            // Limits: 100 is allowed, 101 is not; a cursor from nowhere is refused.
            #expect(try await server.graphql("{ sportsSessions(first: 100) { edges { cursor } } }")["errors"].isNull)
            let tooMany = try await server.graphql("{ sportsSessions(first: 101) { edges { cursor } } }")
            #expect(tooMany.errorMessage == "\"first\" must be between 0 and 100; it is 101.")
            #expect(tooMany.errorCode == "BAD_USER_INPUT")
            let badCursor = try await server.graphql("{ sportsSessions(after: \"nope\") { edges { cursor } } }")
            #expect(badCursor.errorCode == "BAD_USER_INPUT")
            let farRadius = try await server.graphql(
                "{ sportsSessions(filter: {near: {latitude: 0, longitude: 0, radiusKm: 501}}) { edges { cursor } } }")
            #expect(farRadius.errorMessage == "\"radiusKm\" must be more than 0 and at most 500.")
        }
    }

    /// The radius search is an index scan, even over 100,000 sessions.
    @Test func theRadiusSearchUsesTheIndex() async throws {
        try await TestServer.with(mounting: [Playmate.self]) { server in
            _ = try await server.signUp("ana")
            _ = try await server.sql("INSERT INTO locations (name, latitude, longitude) VALUES ('Somewhere', 40, -74)")
            _ = try await server.sql(
                """
                INSERT INTO sports_sessions (sport, skill_level, creator_id, location_id, latitude, longitude, occurs_at, duration_minutes, capacity)
                SELECT 'TENNIS', 'ANY', (SELECT min(id) FROM users), (SELECT min(id) FROM locations),
                       -60 + random() * 120, -180 + random() * 360, now() + (i || ' minutes')::interval, 60, 4
                FROM generate_series(1, 100000) AS i
                """)
            _ = try await server.sql("ANALYZE sports_sessions")
            let plan = try await server.sql(
                """
                EXPLAIN SELECT id FROM sports_sessions s
                WHERE earth_box(ll_to_earth(40.0, -74.0), 20000) @> ll_to_earth(s.latitude, s.longitude)
                  AND earth_distance(ll_to_earth(40.0, -74.0), ll_to_earth(s.latitude, s.longitude)) <= 20000
                """
            ).map { try $0.decode(String.self, at: 0) }.joined(separator: "\n")
            #expect(plan.contains("sports_sessions_position"), "\(plan)")
            #expect(!plan.contains("Seq Scan"), "\(plan)")
        }
    }
}
