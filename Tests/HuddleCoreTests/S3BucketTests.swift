import Foundation
import HuddleCore
import HuddlePush
import HuddleRuntime
import RuntimeTestSupport
import TestSupport
import Testing

/// The media store's S3 client: Signature Version 4 as AWS's documentation
/// computes it, and objects put (whole and in parts), read and deleted on
/// moto, which checks every signature.
@Suite(.serialized) struct S3BucketTests {
    @Test func signsAsAWSsOwnExample() {
        // AWS's example: GET /test.txt from examplebucket, with a Range.
        let signed = S3Bucket.authorization(
            method: "GET", path: "/test.txt", query: "", host: "examplebucket.s3.amazonaws.com", headers: [("Range", "bytes=0-9")],
            payload: [], date: Date(timeIntervalSince1970: 1_369_353_600), region: "us-east-1", accessKey: "AKIAIOSFODNN7EXAMPLE",
            secretKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
        #expect(signed.signature == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(
            signed.headers.first { $0.name == "Authorization" }?.value
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
        )
    }

    @Test func readsTheStoreURL() throws {
        let environment = ["AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s"]
        let aws = try S3Bucket.Location(url: "s3://huddle-pictures/prod?region=eu-west-1", environment: environment)
        #expect(aws.endpoint == "https://s3.eu-west-1.amazonaws.com" && aws.prefix == "prod/" && !aws.pathStyle)
        let local = try S3Bucket.Location(url: "s3://b12/?endpoint=http://127.0.0.1:9000/&path-style=true", environment: environment)
        #expect(local.endpoint == "http://127.0.0.1:9000" && local.prefix == "" && local.pathStyle && local.region == "us-east-1")
        #expect(throws: S3Bucket.Location.Invalid.self) { try S3Bucket.Location(url: "s3://b12", environment: [:]) }
        #expect(throws: S3Bucket.Location.Invalid.self) { try S3Bucket.Location(url: "s3://Bad_Name", environment: environment) }
        #expect(throws: S3Bucket.Location.Invalid.self) { try S3Bucket.Location(url: "https://b12", environment: environment) }
    }

    @Test func putsReadsAndDeletesObjectsWholeAndInParts() async throws {
        let server = try S3Server()
        let running = RunningLoop()
        let location = S3Bucket.Location(
            bucket: server.bucket, prefix: "test/", endpoint: server.endpoint, region: "us-east-1", pathStyle: true,
            accessKey: server.accessKey, secretKey: server.secretKey)
        let loop = running.loop
        try await Task(executorPreference: loop) {
            var bucket = S3Bucket(location, client: HTTPClient(loop: loop, settings: S3Bucket.clientSettings))
            bucket.multipartThreshold = 6 << 20
            bucket.multipartPartBytes = 5 << 20
            let small = Array("a picture's bytes".utf8)
            try await bucket.put("a b/small.jpg", small, contentType: "image/jpeg")
            #expect(try await bucket.get("a b/small.jpg") == small)
            // 12 MiB: three parts of 5, 5 and 2 MiB.
            let large = (0..<(12 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
            try await bucket.put("large.webp", large, contentType: "image/webp")
            #expect(try await bucket.get("large.webp") == large)
            #expect(try await bucket.get("missing.jpg") == nil)
            try await bucket.delete("a b/small.jpg")
            #expect(try await bucket.get("a b/small.jpg") == nil)
            // A wrong secret is refused by the server's own check.
            var wrong = location
            wrong.secretKey = "not-the-secret"
            await #expect(throws: S3Bucket.Failure.self) {
                try await S3Bucket(wrong, client: bucket.client).put("x.jpg", small, contentType: "image/jpeg")
            }
            bucket.client.close()
        }.value
        #expect(try await server.objects() == ["test/large.webp"])
        await running.stop()
    }
}
