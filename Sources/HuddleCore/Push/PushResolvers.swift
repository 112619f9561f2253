import Foundation
import GraphQL
import HuddlePostgres
import HuddleRuntime

/// The API of push: devices, each kind's preference, quiet hours.
package enum PushResolvers {
    package static func bind(_ binder: inout SchemaBinder, apps: [any App.Type]) {
        binder.root("Query", "webPushPublicKey") { input in input.request.push.webPushPublicKey.map { .scalar(.string($0)) } ?? .null }
        binder.root("Query", "pushPlatforms") { input in .list(input.request.push.platforms.sorted().map { .scalar(.enum($0)) }) }
        binder.rootAsync("Query", "pushEndpoints") { input in
            let user = try input.request.signedIn()
            let rows = try await input.request.database.query(
                "SELECT id, platform, address, created_at FROM push_endpoints WHERE user_id = $1 ORDER BY created_at DESC, id DESC", [user])
            return .list(
                try rows.map {
                    .object(
                        PushEndpointRecord(
                            id: try $0.decode(at: 0), platform: try $0.decode(at: 1), address: try $0.decode(at: 2),
                            createdAt: try $0.decode(at: 3)))
                })
        }
        binder.rootAsync("Mutation", "registerPushEndpoint") { input in
            let context = input.request
            let user = try context.signedIn()
            let registration = try await PushEndpoints.registration(
                from: input.argument("input") ?? .null, policy: context.push, loop: context.database.loop)
            let limit = context.settings[Shared.pushEndpointsPerUser]
            return .object(
                try await context.database.withTransaction { connection in
                    try await PushEndpoints.register(registration, for: user, limit: limit, on: connection)
                })
        }
        binder.rootAsync("Mutation", "unregisterPushEndpoint") { input in
            let user = try input.request.signedIn()
            let id = try input.id("id", of: "PushEndpoint")
            let rows = try await input.request.database.query(
                "DELETE FROM push_endpoints WHERE id = $1 AND user_id = $2 RETURNING 1", [id, user])
            guard !rows.isEmpty else { throw APIError.notFound("You have no device with that id.") }
            return .scalar(.boolean(true))
        }
        binder.field("PushEndpoint", "id") { (endpoint: PushEndpointRecord) in GlobalID.value("PushEndpoint", endpoint.id) }
        binder.field("PushEndpoint", "platform") { (endpoint: PushEndpointRecord) in .scalar(.enum(endpoint.platform)) }
        binder.field("PushEndpoint", "label") { (endpoint: PushEndpointRecord) in .scalar(.string(endpoint.label)) }
        binder.field("PushEndpoint", "createdAt") { (endpoint: PushEndpointRecord) in Instant.value(endpoint.createdAt) }
        bindPreferences(&binder, apps: apps)
        binder.field("Notification", "deliveredTo") { (notice: NotificationRecord) in
            .list(notice.deliveredTo.map { .scalar(.enum($0)) })
        }
    }

    /// One kind's choice, as the API shows it.
    struct Preference: Sendable {
        var kind: String
        var push: Bool
        var email: Bool
        var isDefault: Bool
        var promotional: Bool
    }

    struct QuietHoursRecord: Sendable {
        var starts: String
        var ends: String
        var timeZone: String
    }

    private static func bindPreferences(_ binder: inout SchemaBinder, apps: [any App.Type]) {
        let kinds = Notifications.kinds(mounting: apps).map(\.kind.rawValue)
        let styles = NoticeStyles(mounting: apps)
        /// A kind's choice from its row's columns (nil: the default).
        @Sendable func preference(_ kind: String, push: Bool?, email: Bool?) -> Preference {
            let style = styles[kind]
            let push = push ?? style.pushByDefault, email = email ?? style.emailByDefault
            return Preference(
                kind: kind, push: push, email: email, isDefault: push == style.pushByDefault && email == style.emailByDefault,
                promotional: style.promotional)
        }
        binder.rootAsync("Query", "notificationPreferences") { input in
            let user = try input.request.signedIn()
            var chosen: [String: (Bool?, Bool?)] = [:]
            for row in try await input.request.database.query("SELECT kind, push, email FROM notice_preferences WHERE user_id = $1", [user])
            {
                chosen[try row.decode(String.self, at: 0)] = (try row.decode(Bool?.self, at: 1), try row.decode(Bool?.self, at: 2))
            }
            return .list(kinds.map { .object(preference($0, push: chosen[$0]?.0, email: chosen[$0]?.1)) })
        }
        binder.rootAsync("Mutation", "setNotificationPreference") { input in
            let user = try input.request.signedIn()
            let kind = input.argument("kind")?.enumValue ?? ""
            let style = styles[kind]
            // A choice equal to the kind's default is stored as none, so that
            // a kind's default can change for those who never chose.
            let givenPush = input.argument("push")?.boolValue, givenEmail = input.argument("email")?.boolValue
            let chosen = try await input.request.database.withTransaction { connection -> (Bool?, Bool?) in
                let current = try await connection.query(
                    "SELECT push, email FROM notice_preferences WHERE user_id = $1 AND kind = $2 FOR UPDATE", [user, kind])
                var push = try current.first?.decode(Bool?.self, at: 0), email = try current.first?.decode(Bool?.self, at: 1)
                if let givenPush { push = givenPush == style.pushByDefault ? nil : givenPush }
                if let givenEmail { email = givenEmail == style.emailByDefault ? nil : givenEmail }
                if push == nil && email == nil {
                    _ = try await connection.query("DELETE FROM notice_preferences WHERE user_id = $1 AND kind = $2", [user, kind])
                } else {
                    _ = try await connection.query(
                        """
                        INSERT INTO notice_preferences (user_id, kind, push, email) VALUES ($1, $2, $3, $4)
                        ON CONFLICT (user_id, kind) DO UPDATE SET push = EXCLUDED.push, email = EXCLUDED.email
                        """, [user, kind, push, email])
                }
                return (push, email)
            }
            return .object(preference(kind, push: chosen.0, email: chosen.1))
        }
        binder.rootAsync("Query", "quietHours") { input in
            let user = try input.request.signedIn()
            let rows = try await input.request.database.query(
                "SELECT to_char(starts, 'HH24:MI'), to_char(ends, 'HH24:MI'), time_zone FROM quiet_hours WHERE user_id = $1", [user])
            guard let row = rows.first else { return .null }
            return .object(QuietHoursRecord(starts: try row.decode(at: 0), ends: try row.decode(at: 1), timeZone: try row.decode(at: 2)))
        }
        binder.rootAsync("Mutation", "setQuietHours") { input in
            let user = try input.request.signedIn()
            guard case .object(let fields) = input.argument("input") ?? .null else {
                _ = try await input.request.database.query("DELETE FROM quiet_hours WHERE user_id = $1", [user])
                return .null
            }
            func field(_ name: String) -> String { fields.first { $0.name == name }?.value.stringValue ?? "" }
            let hours = QuietHoursRecord(starts: field("starts"), ends: field("ends"), timeZone: field("timeZone"))
            for time in [hours.starts, hours.ends] {
                let parts = time.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }), let hour = Int(parts[0]), let minute = Int(parts[1]),
                    (0..<24).contains(hour), (0..<60).contains(minute)
                else { throw APIError.badInput("starts and ends are local times, HH:MM (\"22:00\").") }
            }
            guard hours.starts != hours.ends else { throw APIError.badInput("starts and ends must differ.") }
            try await TimeZoneName.check(hours.timeZone, argument: "timeZone", on: input.request.database)
            _ = try await input.request.database.query(
                """
                INSERT INTO quiet_hours (user_id, starts, ends, time_zone) VALUES ($1, $2::time, $3::time, $4)
                ON CONFLICT (user_id) DO UPDATE SET starts = EXCLUDED.starts, ends = EXCLUDED.ends, time_zone = EXCLUDED.time_zone
                """, [user, hours.starts, hours.ends, hours.timeZone])
            return .object(hours)
        }
        binder.field("NotificationPreference", "kind") { (preference: Preference) in .scalar(.enum(preference.kind)) }
        binder.field("NotificationPreference", "push") { (preference: Preference) in .scalar(.boolean(preference.push)) }
        binder.field("NotificationPreference", "email") { (preference: Preference) in .scalar(.boolean(preference.email)) }
        binder.field("NotificationPreference", "isDefault") { (preference: Preference) in .scalar(.boolean(preference.isDefault)) }
        binder.field("NotificationPreference", "promotional") { (preference: Preference) in .scalar(.boolean(preference.promotional)) }
        binder.field("QuietHours", "starts") { (hours: QuietHoursRecord) in .scalar(.string(hours.starts)) }
        binder.field("QuietHours", "ends") { (hours: QuietHoursRecord) in .scalar(.string(hours.ends)) }
        binder.field("QuietHours", "timeZone") { (hours: QuietHoursRecord) in .scalar(.string(hours.timeZone)) }
    }
}
