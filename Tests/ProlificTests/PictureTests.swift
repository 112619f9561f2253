import Foundation
import PostgresTestSupport
import Prolific
import ServerTestSupport
import TestSupport
import Testing

/// A project's cover and a snippet's picture, from uploads: a public
/// project's served to anyone by key, a private project's only by the
/// signed URL its members are given.
@Suite(.enabled(if: TestDatabase.available), .hangGuard) struct PictureTests {
    typealias F = ProlificFixtures

    static let setCover =
        "mutation($p: ID!, $f: Upload) { setProjectCover(projectId: $p, file: $f) { cover(size: THUMBNAIL, format: WEBP) } }"
    static let submit = """
        mutation($r: ID!, $f: Upload) { submitSnippet(roundId: $r, text: "And then it rained.", picture: $f) { id picture(format: JPEG) } }
        """

    static func pictures() async throws -> ScratchDirectory {
        let folder = try ScratchDirectory("huddle-prolific-pictures")
        let made = try await ClientProcess.python("images.py", ["make", folder.url.path]).finished()
        #expect(made.status == 0, "\(made.errors)")
        return folder
    }

    @Test func aPublicProjectsPicturesAreServedByKey() async throws {
        let pictures = try await Self.pictures()
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let users = try await server.makeUsers(2, prefix: "cover")
            let (owner, writer) = (users[0], users[1])
            let project = try await F.project(server, token: owner.token)
            let cover = try await server.graphql(
                Self.setCover, ["p": project.id, "f": try await server.upload(pictures.path("gps.jpg"), token: owner.token)],
                token: owner.token)
            let path = try #require(cover["data"]["setProjectCover"]["cover"].string, "\(cover)")
            #expect(path.hasSuffix("/thumbnail.webp") && !path.contains("?"))
            let served = try curlFetch("http://127.0.0.1:\(server.port)\(path)")
            #expect(served.status == 200 && served.headers["cache-control"] == "public, max-age=31536000, immutable")
            // Only the owner sets the cover.
            let refused = try await server.graphql(
                Self.setCover, ["p": project.id, "f": try await server.upload(pictures.path("small.png"), token: writer.token)],
                token: writer.token)
            #expect(refused.errorCode == "FORBIDDEN", "\(refused)")
            // A writer's snippet with a picture.
            let snippet = try await server.graphql(
                Self.submit, ["r": project.round, "f": try await server.upload(pictures.path("small.png"), token: writer.token)],
                token: writer.token)
            let picture = try #require(snippet["data"]["submitSnippet"]["picture"].string, "\(snippet)")
            #expect(picture.hasSuffix("/feed.jpg"))
            // The cover removed: its picture goes.
            let removed = try await server.graphql(Self.setCover, ["p": project.id, "f": nil as String?], token: owner.token)
            #expect(removed["data"]["setProjectCover"]["cover"].isNull, "\(removed)")
            // Served from memory until the database's notice of its removal
            // arrives, a moment after the answer.
            var status = 0
            for _ in 0..<100 {
                status = try curlFetch("http://127.0.0.1:\(server.port)\(path)").status
                if status == 404 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(status == 404)
        }
    }

    @Test func aPrivateProjectsPicturesNeedASignedURL() async throws {
        let pictures = try await Self.pictures()
        try await TestServer.with(mounting: [Prolific.self]) { server in
            let users = try await server.makeUsers(2, prefix: "private")
            let (owner, outsider) = (users[0], users[1])
            let project = try await F.project(server, token: owner.token, extra: ["isPrivate": true])
            let cover = try await server.graphql(
                Self.setCover, ["p": project.id, "f": try await server.upload(pictures.path("gps.jpg"), token: owner.token)],
                token: owner.token)
            let signed = try #require(cover["data"]["setProjectCover"]["cover"].string, "\(cover)")
            #expect(signed.contains("?expires=") && signed.contains("&signature="), "\(signed)")
            let base = "http://127.0.0.1:\(server.port)"
            let served = try curlFetch(base + signed)
            #expect(served.status == 200 && served.headers["cache-control"]?.hasPrefix("private, ") == true, "\(served.headers)")
            let bare = String(signed.prefix { $0 != "?" })
            #expect(try curlFetch(base + bare).status == 403)
            #expect(try curlFetch(base + signed.dropLast(2) + "xx").status == 403)
            // Another size with this size's signature.
            #expect(try curlFetch(base + signed.replacingOccurrences(of: "/thumbnail.", with: "/full.")).status == 403)
            // An outsider is given no URL: the project is not theirs to see.
            let seen = try await server.graphql(
                "query($p: ID!) { project(id: $p) { cover } }", ["p": project.id], token: outsider.token)
            #expect(seen["data"]["project"].isNull, "\(seen)")
            // A member's snippet picture is private too.
            let snippet = try await server.graphql(
                Self.submit, ["r": project.round, "f": try await server.upload(pictures.path("small.png"), token: owner.token)],
                token: owner.token)
            let picture = try #require(snippet["data"]["submitSnippet"]["picture"].string, "\(snippet)")
            #expect(picture.contains("&signature="))
            #expect(try curlFetch(base + picture).status == 200)
            #expect(try curlFetch(base + String(picture.prefix { $0 != "?" })).status == 403)
        }
    }
}
