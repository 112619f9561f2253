import Foundation
import GraphQL
import HuddleCore
import Playmate
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// The shared core and the apps it mounts: each app's schema folder,
/// resolvers, node types and notice kinds come in with it and with nothing
/// else.
@Suite struct AppMountingTests {
    let directory = TestSchema.everything

    @Test func theSharedCoreBuildsAloneWithoutAnyAppsTypes() throws {
        // Building checks every field has its resolver.
        let schema = try HuddleAPI.executableSchema(directory, apps: [])
        #expect(schema.schema.type(named: "User") != nil)
        #expect(schema.schema.type(named: "SportsSession") == nil)
        #expect(
            schema.schema.type(named: "NotificationKind")?.enumValues.map(\.name) == ["FRIEND_REQUEST_RECEIVED", "FRIEND_REQUEST_ACCEPTED"])
    }

    @Test func mountingPlaymateAddsItsTypesKindsAndNodes() throws {
        let schema = try HuddleAPI.executableSchema(directory, apps: [Playmate.self])
        #expect(schema.schema.type(named: "SportsSession") != nil)
        #expect(
            schema.schema.type(named: "NotificationKind")?.enumValues.map(\.name) == [
                "FRIEND_REQUEST_RECEIVED", "FRIEND_REQUEST_ACCEPTED", "INVITATION_RECEIVED", "INVITATION_ACCEPTED", "INVITATION_DECLINED",
                "SESSION_DELETED", "SESSION_REMINDER",
            ])
        #expect(
            Set(([Shared.self, Playmate.self] as [any App.Type]).flatMap { $0.nodeTypes.map(\.typename) }) == [
                "User", "FriendRequest", "SportsSession", "Location", "Invitation",
            ])
    }

    @Test func aSchemaWhoseKindsDifferFromTheAppsIsRefused() throws {
        let schema = try buildSchema([
            Source(body: "type Query { a: Int } enum NotificationKind { FRIEND_REQUEST_RECEIVED SESSION_UPDATED }")
        ])
        #expect {
            try HuddleAPI.checkNotificationKinds(
                schema, [.init(rawValue: "FRIEND_REQUEST_RECEIVED"), .init(rawValue: "FRIEND_REQUEST_ACCEPTED")])
        } throws: { error in
            "\(error)".contains("missing from the schema [\"FRIEND_REQUEST_ACCEPTED\"]")
                && "\(error)".contains("recorded by no app [\"SESSION_UPDATED\"]")
        }
        #expect(throws: Never.self) {
            try HuddleAPI.checkNotificationKinds(schema, [.init(rawValue: "SESSION_UPDATED"), .init(rawValue: "FRIEND_REQUEST_RECEIVED")])
        }
    }

    /// Migrating with every app mounted registers each app's kinds in the
    /// database, whose foreign key then refuses any other.
    @Test(.enabled(if: TestDatabase.available), .hangGuard) func everyMountedAppsKindsAreRegisteredInTheDatabase() async throws {
        try await TestServer.with(mounting: everyApp) { server in
            let registered = try await server.sql("SELECT kind, app FROM notification_kinds ORDER BY kind").map {
                "\(try $0.decode(String.self, at: 0)) \(try $0.decode(String.self, at: 1))"
            }
            let expected =
                everyApp.flatMap { app in app.notificationKinds.map { "\($0.rawValue) \(app.schemaFolder)" } }
                + Shared.notificationKinds.map { "\($0.rawValue) shared" }
            #expect(registered == expected.sorted())
            #expect(registered.count == 27)
        }
    }
}
