import Foundation
import HuddleCore
import HuddleServer
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Uploads by the GraphQL multipart request specification, sent by curl's
/// -F and Python's requests, and to a one-time URL by curl -T: a picture
/// becomes the user's avatar, served remade; hostile requests get a clear
/// error and leave nothing behind.
@Suite(.enabled(if: TestDatabase.available), .hangGuard) struct UploadTests {
    static let setAvatar =
        #"{"query":"mutation($f: Upload!) { setAvatar(file: $f) { avatar(size: THUMBNAIL, format: WEBP) } }","variables":{"f":null}}"#

    /// The test pictures (images.py), in a folder that lives as long as the value.
    static func pictures() async throws -> ScratchDirectory {
        let folder = try ScratchDirectory("huddle-uploads")
        let made = try await ClientProcess.python("images.py", ["make", folder.url.path]).finished()
        #expect(made.status == 0, "\(made.errors)")
        return folder
    }

    static func post(_ server: TestServer, token: String?, preflight: Bool = true, _ fields: [String]) throws -> (
        status: Int, json: [String: Any]
    ) {
        try server.multipart(fields, token: token, preflight: preflight)
    }

    static func code(_ json: [String: Any]) -> String? {
        ((json["errors"] as? [[String: Any]])?.first?["extensions"] as? [String: Any])?["code"] as? String
    }

    static func mediaCount(_ server: TestServer) async throws -> Int {
        try await server.sql("SELECT count(*)::int FROM media")[0].decode(Int.self, at: 0)
    }

    @Test func aPictureSentWithCurlBecomesTheAvatarRemade() async throws {
        let pictures = try await Self.pictures()
        try await TestServer.with { server in
            let user = try await server.makeUsers(1, prefix: "avatar")[0]
            let (status, json) = try Self.post(
                server, token: user.token,
                ["operations=\(Self.setAvatar)", #"map={"0":["variables.f"]}"#, "0=@\(pictures.path("gps.jpg"))"])
            #expect(status == 200, "\(json)")
            let path = try #require(((json["data"] as? [String: Any])?["setAvatar"] as? [String: Any])?["avatar"] as? String, "\(json)")
            #expect(path.hasPrefix("/media/") && path.hasSuffix("/thumbnail.webp"))
            let served = try curlFetch("http://127.0.0.1:\(server.port)\(path)")
            #expect(served.status == 200 && served.headers["content-type"] == "image/webp")
            #expect(served.body.starts(with: Array("RIFF".utf8)))
            // What the client sent is nowhere: the GPS photo was remade.
            let kept = try await server.sql("SELECT count(*)::int FROM media WHERE purpose = 'avatar'")[0].decode(Int.self, at: 0)
            #expect(kept == 1)
            // A second picture replaces the first, which goes.
            let again = try Self.post(
                server, token: user.token,
                ["operations=\(Self.setAvatar)", #"map={"0":["variables.f"]}"#, "0=@\(pictures.path("small.png"))"])
            #expect(again.status == 200, "\(again.json)")
            #expect(try await Self.mediaCount(server) == 1)
            // Two uploads on one connection: the second reuses it (the
            // first was read to its end).
            let (_, reused) = try curl(
                [
                    "-v", "-o", "/dev/null", "-H", "Authorization: Bearer \(user.token)", "-H", "GraphQL-Require-Preflight: 1",
                    "-F", "operations=\(Self.setAvatar)", "-F", #"map={"0":["variables.f"]}"#, "-F", "0=@\(pictures.path("small.png"))",
                    "http://127.0.0.1:\(server.port)/graphql", "--next", "-o", "/dev/null", "-H", "Authorization: Bearer \(user.token)",
                    "-H", "GraphQL-Require-Preflight: 1", "-F", "operations=\(Self.setAvatar)", "-F", #"map={"0":["variables.f"]}"#,
                    "-F", "0=@\(pictures.path("small.png"))", "http://127.0.0.1:\(server.port)/graphql",
                ])
            #expect(reused.contains("Re-using existing connection") || reused.contains("Reusing existing connection"), "\(reused)")
            #expect(try await Self.mediaCount(server) == 1)
            let removed = try await server.graphql("mutation { removeAvatar { avatar } }", token: user.token)
            #expect(removed["data"]["removeAvatar"]["avatar"].isNull, "\(removed)")
            #expect(try await Self.mediaCount(server) == 0)
        }
    }

    @Test func pythonRequestsSendsTheSameForm() async throws {
        let pictures = try await Self.pictures()
        try await TestServer.with { server in
            let user = try await server.makeUsers(1, prefix: "requests")[0]
            let sent = try await ClientProcess.python(
                "upload.py", ["http://127.0.0.1:\(server.port)/graphql", user.token, pictures.path("tall.webp")]
            ).finished()
            #expect(sent.status == 0, "\(sent.output) \(sent.errors)")
            #expect(sent.output.contains("/media/"), "\(sent.output)")
        }
    }

    @Test func whatIsNotAllowedIsRefusedAndLeavesNothing() async throws {
        let pictures = try await Self.pictures()
        try await TestServer.with({ configuration in
            configuration.appSettings = try! AppSettings(
                AppSettings.declared(mounting: []), environment: [:],
                assignments: ["upload-files-per-request=2", "upload-file-megabytes=1", "uploads-per-hour=4"])
        }) { server in
            let user = try await server.makeUsers(1, prefix: "refused")[0]
            let map = #"map={"0":["variables.f"]}"#
            let photo = "0=@\(pictures.path("gps.jpg"))"
            // No preflight header: a form any page could post.
            let csrf = try Self.post(server, token: user.token, preflight: false, ["operations=\(Self.setAvatar)", map, photo])
            #expect(csrf.status == 400 && Self.code(csrf.json) == "BAD_REQUEST", "\(csrf)")
            // Not signed in.
            let anonymous = try Self.post(server, token: nil, ["operations=\(Self.setAvatar)", map, photo])
            #expect(anonymous.status == 401 && Self.code(anonymous.json) == "UNAUTHENTICATED", "\(anonymous)")
            // Not pictures, whatever their names say; a bomb; a cut-off JPEG.
            for file in ["svg.png", "bomb.png", "truncated.jpg"] {
                let refused = try Self.post(server, token: user.token, ["operations=\(Self.setAvatar)", map, "0=@\(pictures.path(file))"])
                #expect(refused.status == 400 && Self.code(refused.json) == "BAD_USER_INPUT", "\(file): \(refused)")
            }
            // At the file limit (1 MiB) and just over.
            let folder = try ScratchDirectory("huddle-large")
            try Data(repeating: 0xFF, count: (1 << 20) + 1).write(to: folder.url.appendingPathComponent("large.jpg"))
            let large = try Self.post(server, token: user.token, ["operations=\(Self.setAvatar)", map, "0=@\(folder.path("large.jpg"))"])
            #expect(large.status == 413 && Self.code(large.json) == "UPLOAD_TOO_LARGE", "\(large)")
            // More files than a request may carry (2), named in the map.
            let three = #"map={"0":["variables.f"],"1":["variables.f"],"2":["variables.f"]}"#
            let many = try Self.post(server, token: user.token, ["operations=\(Self.setAvatar)", three, photo])
            #expect(many.status == 413 && Self.code(many.json) == "UPLOAD_TOO_LARGE", "\(many)")
            // A map naming one place twice.
            let twice = try Self.post(
                server, token: user.token, ["operations=\(Self.setAvatar)", #"map={"0":["variables.f","variables.f"]}"#, photo])
            #expect(twice.status == 400 && Self.code(twice.json) == "BAD_REQUEST", "\(twice)")
            // A map pointing where there is no null.
            let wrong = try Self.post(server, token: user.token, ["operations=\(Self.setAvatar)", #"map={"0":["variables.g"]}"#, photo])
            #expect(wrong.status == 400 && Self.code(wrong.json) == "BAD_REQUEST", "\(wrong)")
            #expect(try await Self.mediaCount(server) == 0)
            // The hour's count (4): the four files that reached the receiver above were counted; the next is refused.
            let counted = try Self.post(server, token: user.token, ["operations=\(Self.setAvatar)", map, photo])
            #expect(counted.status == 429 && Self.code(counted.json) == "RATE_LIMITED", "\(counted)")
            #expect(try await Self.mediaCount(server) == 0)
        }
    }

    @Test func tenThousandTinyPartsAreRefusedAtTheFirstOneTooMany() async throws {
        try await TestServer.with { server in
            let user = try await server.makeUsers(1, prefix: "parts")[0]
            let boundary = "b0undary"
            var body = "--\(boundary)\r\nContent-Disposition: form-data; name=\"operations\"\r\n\r\n\(Self.setAvatar)\r\n"
            body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"map\"\r\n\r\n{\"0\":[\"variables.f\"]}\r\n"
            for index in 0..<10_000 {
                body += "--\(boundary)\r\nContent-Disposition: form-data; name=\"x\(index)\"; filename=\"x\"\r\n\r\nx\r\n"
            }
            body += "--\(boundary)--\r\n"
            let client = try RawClient(port: server.port)
            client.send(
                "POST /graphql HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer \(user.token)\r\nGraphQL-Require-Preflight: 1\r\n"
                    + "Content-Type: multipart/form-data; boundary=\(boundary)\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
            let (text, _) = client.receive { $0.contains("\r\n\r\n") && $0.contains("}") }
            #expect(text.hasPrefix("HTTP/1.1 400 ") || text.hasPrefix("HTTP/1.1 413 "), "\(text.prefix(300))")
            #expect(try await Self.mediaCount(server) == 0)
        }
    }

    @Test func aHundredMegabyteBodyIsRefusedFromItsHead() async throws {
        try await TestServer.with { server in
            let user = try await server.makeUsers(1, prefix: "huge")[0]
            // Announced, never sent: the answer comes before any of it.
            let client = try RawClient(port: server.port)
            client.send(
                "POST /graphql HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer \(user.token)\r\nGraphQL-Require-Preflight: 1\r\n"
                    + "Content-Type: multipart/form-data; boundary=b\r\nContent-Length: \(100 << 20)\r\n\r\n")
            let (text, closed) = client.receive()
            #expect(text.hasPrefix("HTTP/1.1 413 "), "\(text)")
            #expect(closed)
            // The same to a one-time URL.
            let slot = try await server.graphql("mutation { createUpload { url } }", token: user.token)
            let url = try #require(slot["data"]["createUpload"]["url"].string)
            let put = try RawClient(port: server.port)
            put.send("PUT \(url) HTTP/1.1\r\nHost: a\r\nContent-Length: \(100 << 20)\r\n\r\n")
            #expect(put.receive().text.hasPrefix("HTTP/1.1 413 "))
        }
    }

    @Test func aPolyglotIsServedOnlyAsThePictureRemade() async throws {
        let pictures = try await Self.pictures()
        try await TestServer.with { server in
            let user = try await server.makeUsers(1, prefix: "polyglot")[0]
            let sent = try Self.post(
                server, token: user.token,
                [
                    #"operations={"query":"mutation($f: Upload!) { setAvatar(file: $f) { avatar(size: FULL, format: JPEG) } }","variables":{"f":null}}"#,
                    #"map={"0":["variables.f"]}"#, "0=@\(pictures.path("polyglot.jpg"))",
                ])
            let path = try #require(((sent.json["data"] as? [String: Any])?["setAvatar"] as? [String: Any])?["avatar"] as? String)
            let served = try curlFetch("http://127.0.0.1:\(server.port)\(path)")
            #expect(served.status == 200 && served.body.starts(with: [0xFF, 0xD8]))
            let payload = Array("PAYLOAD-AFTER-THE-IMAGE".utf8)
            #expect(!served.body.indices.contains { served.body[$0...].starts(with: payload) })
        }
    }

    @Test func aOneTimeURLTakesTheBytesOnce() async throws {
        let pictures = try await Self.pictures()
        try await TestServer.with({ $0.allowedOrigins = ["http://app.example"] }) { server in
            let user = try await server.makeUsers(1, prefix: "slot")[0]
            let slot = try await server.graphql("mutation { createUpload { id url expiresAt } }", token: user.token)
            let url = try #require(slot["data"]["createUpload"]["url"].string, "\(slot)")
            let id = try #require(slot["data"]["createUpload"]["id"].string)
            let put = { () throws -> String in
                try curl(["-o", "-", "-w", "\n%{http_code}", "-T", pictures.path("gps.jpg"), "http://127.0.0.1:\(server.port)\(url)"])
                    .output
            }
            let first = try put()
            #expect(first.hasSuffix("\n201") && first.contains(id), "\(first)")
            #expect(try put().hasSuffix("\n404"))
            let set = try await server.graphql(
                "mutation($f: Upload!) { setAvatar(file: $f) { avatar(size: FULL) } }", ["f": id], token: user.token)
            #expect(set["data"]["setAvatar"]["avatar"].string?.hasSuffix("/full") == true, "\(set)")
            // Used once: a second mutation cannot take it again, nor can another user's.
            let again = try await server.graphql(
                "mutation($f: Upload!) { setAvatar(file: $f) { avatar } }", ["f": id], token: user.token)
            #expect(again.errorCode == "BAD_USER_INPUT", "\(again)")
            // A browser app on an allowed origin may PUT there; another may not.
            let allowed = try curlFetch(
                "http://127.0.0.1:\(server.port)/uploads",
                ["-X", "OPTIONS", "-H", "Origin: http://app.example", "-H", "Access-Control-Request-Method: PUT"])
            #expect(allowed.status == 204 && allowed.headers["access-control-allow-origin"] == "http://app.example")
            #expect(allowed.headers["access-control-allow-methods"]?.contains("PUT") == true)
            let other = try curlFetch(
                "http://127.0.0.1:\(server.port)/uploads", ["-X", "OPTIONS", "-H", "Origin: http://elsewhere.example"])
            #expect(other.status == 403)
            // An anonymous createUpload is refused.
            let anonymous = try await server.graphql("mutation { createUpload { id } }")
            #expect(anonymous.errorCode == "UNAUTHENTICATED", "\(anonymous)")
        }
    }
}
