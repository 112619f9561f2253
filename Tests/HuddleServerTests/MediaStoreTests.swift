import Foundation
import HuddleCore
import HuddleMedia
import HuddlePostgres
import HuddlePush
import HuddleRuntime
import HuddleServer
import PostgresTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// Pictures kept in an S3-compatible bucket (moto, which checks every
/// signature): an upload's renditions go there and only their sizes and
/// ETags to PostgreSQL; /media serves them from the bucket; a picture
/// removed has its objects deleted by the scheduler.
@Suite(.enabled(if: TestDatabase.available), .hangGuard) struct MediaStoreTests {
    @Test func anUploadIsKeptInTheBucketServedAndDeletedWithItsPicture() async throws {
        let s3 = try S3Server()
        let pictures = try ScratchDirectory("huddle-store-pictures")
        let made = try await ClientProcess.python("images.py", ["make", pictures.url.path]).finished()
        #expect(made.status == 0, "\(made.errors)")
        let location = S3Bucket.Location(
            bucket: s3.bucket, prefix: "pictures/", endpoint: s3.endpoint, region: "us-east-1", pathStyle: true, accessKey: s3.accessKey,
            secretKey: s3.secretKey)
        try await TestServer.with({ $0.mediaStore = location }) { server in
            let user = try await server.makeUsers(1, prefix: "bucket")[0]
            // By multipart request, and by a one-time URL.
            let sent = try server.multipart(
                [
                    #"operations={"query":"mutation($f: Upload!) { setAvatar(file: $f) { avatar(size: FEED, format: WEBP) } }","variables":{"f":null}}"#,
                    #"map={"0":["variables.f"]}"#, "0=@\(pictures.path("gps.jpg"))",
                ], token: user.token)
            let path = try #require(
                ((sent.json["data"] as? [String: Any])?["setAvatar"] as? [String: Any])?["avatar"] as? String, "\(sent)")
            let key = path.split(separator: "/")[1]
            let objects = try await s3.objects()
            #expect(
                objects
                    == ["feed.jpg", "feed.webp", "full.jpg", "full.webp", "thumbnail.jpg", "thumbnail.webp"].map { "pictures/\(key)/\($0)" },
                "\(objects)")
            let kept = try await server.sql("SELECT count(*)::int FROM media_renditions WHERE bytes IS NULL")[0].decode(Int.self, at: 0)
            #expect(kept == 6)
            let listed = try await server.sql("SELECT count(*)::int FROM media_object_trash")[0].decode(Int.self, at: 0)
            #expect(listed == 0, "a recorded picture's objects are taken off the trash")
            let served = try curlFetch("http://127.0.0.1:\(server.port)\(path)")
            #expect(served.status == 200 && served.body.starts(with: Array("RIFF".utf8)))
            let second = try await server.upload(pictures.path("small.png"), token: user.token)
            let replaced = try await server.graphql(
                "mutation($f: Upload!) { setAvatar(file: $f) { avatar(size: THUMBNAIL) } }", ["f": second], token: user.token)
            #expect(replaced.errorCode == nil, "\(replaced)")
            // The first picture's objects go; the second's stay, then go too.
            // The scheduler deletes them against moto, a Python server that
            // a busy machine slows: polled for up to a minute, which costs
            // nothing when it is quick.
            var left: [String] = []
            for _ in 0..<600 {
                left = try await s3.objects()
                if left.count == 6 && !left.contains(where: { $0.contains(key) }) { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(left.count == 6 && !left.contains { $0.contains(key) }, "\(left)")
            _ = try await server.graphql("mutation { removeAvatar { id } }", token: user.token)
            for _ in 0..<600 {
                left = try await s3.objects()
                if left.isEmpty { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(left.isEmpty, "\(left)")
        }
    }

    /// Objects put for a picture never recorded (the process died between)
    /// are listed for the trash beforehand, and deleted once due.
    @Test func objectsOfAPictureNeverRecordedAreDeletedLater() async throws {
        let s3 = try S3Server()
        let location = S3Bucket.Location(
            bucket: s3.bucket, prefix: "", endpoint: s3.endpoint, region: "us-east-1", pathStyle: true, accessKey: s3.accessKey,
            secretKey: s3.secretKey)
        try await TestServer.with({ $0.mediaStore = location }) { server in
            let url = server.databaseURL
            let renditions = try ImageProcessor().process(DemoPictures.png(0))
            try await EventLoop.withOwnThread { loop in
                let pool = PostgresPool(TestDatabase.configuration(url: url), on: loop)
                let client = HTTPClient(loop: loop, settings: S3Bucket.clientSettings)
                _ = try await MediaLibrary.putObjects(renditions, in: S3Bucket(location, client: client), listingOn: pool)
                client.close()
                await pool.close()
            }
            #expect(try await s3.objects().count == 6)
            let listed = try await server.sql("SELECT count(*)::int FROM media_object_trash WHERE removed_at > now()")[0].decode(
                Int.self, at: 0)
            #expect(listed == 6)
            // An hour on, as far as the job can tell.
            _ = try await server.sql("UPDATE media_object_trash SET removed_at = now()")
            _ = try await server.sql("UPDATE scheduled_jobs SET due_at = now() WHERE kind = 'media.trash'")
            _ = try await server.sql("SELECT pg_notify('huddle_scheduler', '0')")
            // The scheduler deletes them against moto, a Python server that
            // a busy machine slows: polled for up to a minute, which costs
            // nothing when it is quick.
            var left: [String] = []
            for _ in 0..<600 {
                left = try await s3.objects()
                if left.isEmpty { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(left.isEmpty, "\(left)")
        }
    }
}
