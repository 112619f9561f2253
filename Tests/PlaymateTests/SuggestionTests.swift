import Foundation
import HuddleCore
import HuddleRuntime
import Playmate
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// The quiz, statistics, and suggestions ranked by the document's formula on
/// a fixed dataset.
@Suite(.enabled(if: TestDatabase.available), .hangGuard)
struct SuggestionTests {
    @Test func suggestionsFollowTheFormulaOnAFixedDataset() async throws {
        try await TestServer.with(mounting: [Playmate.self]) { server in
            let users = try await server.makeUsers(4, prefix: "rank")
            let me = users[0]
            let (meID, friendID, womanID, manID) = (rowID(users[0].id), rowID(users[1].id), rowID(users[2].id), rowID(users[3].id))
            _ = try await server.sql(
                """
                UPDATE users SET gender = CASE id WHEN \(womanID) THEN 'FEMALE' WHEN \(manID) THEN 'MALE' END,
                    birthday = CASE id WHEN \(womanID) THEN (now() - interval '30 years')::date WHEN \(manID) THEN (now() - interval '60 years')::date END
                """)
            _ = try await server.sql("INSERT INTO friendships (user_id, friend_id) VALUES (\(meID), \(friendID)), (\(friendID), \(meID))")
            _ = try await server.sql(
                """
                INSERT INTO locations (id, name, latitude, longitude) OVERRIDING SYSTEM VALUE VALUES
                    (1, 'Near', 40.01, -74.01), (2, 'Philadelphia', 39.95, -75.17)
                """)
            // name → (sport, creator, location, hours from now, capacity)
            let sessions: [(String, String, String, Int, Int, Int)] = [
                ("past", "SOCCER", meID, 1, -48, 4), ("A", "TENNIS", manID, 1, 24, 4), ("B", "SOCCER", friendID, 1, 25, 4),
                ("C", "BASKETBALL", womanID, 1, 26, 4), ("D", "GOLF", womanID, 1, 27, 4), ("E", "TENNIS", womanID, 2, 28, 4),
                ("F", "TENNIS", manID, 1, 29, 2), ("G", "TENNIS", meID, 1, 30, 4),
            ]
            var ids: [String: String] = [:]
            for (name, sport, creator, location, hours, capacity) in sessions {
                let id = try await server.sql(
                    """
                    INSERT INTO sports_sessions (sport, skill_level, creator_id, location_id, latitude, longitude, occurs_at, duration_minutes, capacity)
                    SELECT $1, 'ANY', $2::bigint, l.id, l.latitude, l.longitude, now() + make_interval(hours => $3::int), 90, $4::int
                    FROM locations l WHERE l.id = $5::bigint RETURNING id
                    """, [sport, creator, hours, capacity, location])[0].decode(Int64.self, at: 0)
                _ = try await server.sql("INSERT INTO session_players (session_id, user_id) VALUES ($1, $2::bigint)", [id, creator])
                ids[name] = Base64URL.encode("SportsSession:\(id)")
            }
            _ = try await server.sql(
                "INSERT INTO session_players (session_id, user_id) SELECT id, \(womanID) FROM sports_sessions WHERE sport = 'TENNIS' AND capacity = 2"
            )

            let quiz = try await server.graphql(
                """
                mutation { saveQuizResult(input: {sportsPlayed: [TENNIS], sportsNotWanted: [GOLF], preferredGenders: [FEMALE],
                  preferredAgeGroups: [AGE_25_34]}) { sportsPlayed sportsNotWanted preferredGenders preferredAgeGroups } }
                """, token: me.token)
            #expect(quiz["data"]["saveQuizResult"]["sportsNotWanted"][0].string == "GOLF", "\(quiz)")
            let clash = try await server.graphql(
                """
                mutation { saveQuizResult(input: {sportsPlayed: [TENNIS], sportsNotWanted: [TENNIS], preferredGenders: [],
                  preferredAgeGroups: []}) { updatedAt } }
                """, token: me.token)
            #expect(clash.errorMessage == "A sport cannot be both played and not wanted: TENNIS.")
            _ = try await server.graphql(
                "mutation { updateProfile(input: {homeLocation: {latitude: 40.0, longitude: -74.0}}) { id } }", token: me.token)

            let reply = try await server.graphql(
                """
                { suggestedSessions(first: 10) { session { id } score sportWeight friendsInSession playersInPreferredGenders playersInPreferredAgeGroups } }
                """, token: me.token)
            let suggestions = reply["data"]["suggestedSessions"].array
            // B: soccer is all of my history (weight ½) and a friend plays: 5.2·0.5 + 2.3 = 4.9.
            // C: a woman of 30 plays: 1.2 + 1.9 = 3.1. A: tennis is in my quiz (weight ½): 2.6.
            // D is golf (not wanted), E too far, F full, G mine already.
            #expect(suggestions.map { $0["session"]["id"].string } == [ids["B"], ids["C"], ids["A"]], "\(reply)")
            #expect(suggestions.map { (($0["score"].double ?? 0) * 100).rounded() / 100 } == [4.9, 3.1, 2.6])
            #expect(suggestions[0]["friendsInSession"].int == 1)
            #expect(suggestions[1]["playersInPreferredGenders"].int == 1)
            #expect(suggestions[1]["playersInPreferredAgeGroups"].int == 1)
            #expect(suggestions[2]["sportWeight"].double == 0.5)
            let far = try await server.graphql("{ suggestedSessions(radiusKm: 501) { score } }", token: me.token)
            #expect(far.errorCode == "BAD_USER_INPUT")
            // The schema's maximum page, and one over it.
            let most = try await server.graphql("{ suggestedSessions(first: 50) { score } }", token: me.token)
            #expect(most["data"]["suggestedSessions"].array.count == 3, "\(most)")
            let over = try await server.graphql("{ suggestedSessions(first: 51) { score } }", token: me.token)
            #expect(over.errorCode == "BAD_USER_INPUT" && over.errorMessage == "\"first\" must be between 0 and 50; it is 51.", "\(over)")

            // The same list with where it was searched; empty, with the reason.
            let found = try await server.graphql(
                "{ sessionSuggestions(first: 2) { suggestions { session { id } } origin { latitude longitude } emptyReason } }",
                token: me.token)
            let answer = found["data"]["sessionSuggestions"]
            #expect(answer["suggestions"].array.map { $0["session"]["id"].string } == [ids["B"], ids["C"]], "\(found)")
            #expect(answer["origin"]["latitude"].double == 40.0 && answer["origin"]["longitude"].double == -74.0)
            #expect(answer["emptyReason"].isNull)
            let nothingNear = try await server.graphql(
                "{ sessionSuggestions(radiusKm: 0.5) { suggestions { score } origin { latitude } emptyReason } }", token: me.token)
            #expect(nothingNear["data"]["sessionSuggestions"]["emptyReason"].string == "NONE_NEARBY", "\(nothingNear)")
            #expect(nothingNear["data"]["sessionSuggestions"]["origin"]["latitude"].double == 40.0)
            // Someone with no home and no session: nowhere to look, and the answer says so.
            let stranger = try await server.makeUsers(1, prefix: "new")[0]
            let newcomer = try await server.graphql(
                "{ sessionSuggestions { suggestions { score } origin { latitude } emptyReason } }", token: stranger.token)
            #expect(newcomer["data"]["sessionSuggestions"]["suggestions"].array.isEmpty, "\(newcomer)")
            #expect(newcomer["data"]["sessionSuggestions"]["origin"].isNull)
            #expect(newcomer["data"]["sessionSuggestions"]["emptyReason"].string == "NO_LOCATION")

            let statistics = try await server.graphql(
                "{ me { statistics { sessionsPerSport { sport sessions } sessionsPlayed hoursPlayed sessionsCreated friendCount } } }",
                token: me.token)
            let numbers = statistics["data"]["me"]["statistics"]
            #expect(numbers["sessionsPerSport"].array.map { $0["sport"].string } == ["SOCCER", "TENNIS"], "\(statistics)")
            #expect(numbers["sessionsPlayed"].int == 1)
            #expect(numbers["hoursPlayed"].double == 1.5)
            #expect(numbers["sessionsCreated"].int == 2)
            #expect(numbers["friendCount"].int == 1)
        }
    }
}
