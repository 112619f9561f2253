import Foundation

/// moto in server mode (Tests/clients/s3_server.py): an S3-compatible
/// server written apart from Huddle that checks each request's Signature
/// Version 4, with a bucket and a key allowed to use it.
package final class S3Server: Sendable {
    package let endpoint: String
    package let accessKey: String
    package let secretKey: String
    package let bucket: String
    private let process: Subprocess

    package init(bucket: String = "huddle-media") throws {
        self.bucket = bucket
        let started = try startPythonService("s3_server.py", ["serve", bucket])
        process = started.process
        guard let object = try? JSONSerialization.jsonObject(with: Data(started.firstLine.utf8)) as? [String: String],
            let endpoint = object["endpoint"], let key = object["key"], let secret = object["secret"]
        else {
            process.killAndWait()
            throw CocoaError(.fileReadCorruptFile)
        }
        self.endpoint = endpoint
        accessKey = key
        secretKey = secret
    }

    deinit {
        process.killAndWait()
    }

    /// The bucket's object names, as boto3 lists them.
    package func objects() async throws -> [String] {
        let listed = try await ClientProcess.python("s3_server.py", ["list", endpoint, accessKey, secretKey, bucket]).finished()
        guard listed.status == 0, let names = try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return names
    }
}
