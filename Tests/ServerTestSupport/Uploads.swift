import Foundation
import TestSupport

extension TestServer {
    /// A GraphQL multipart request sent by curl's `-F` (each of `fields`
    /// as curl takes it: `operations=…`, `map=…`, `0=@path`), with the
    /// preflight header a browser's form cannot send; the status and the
    /// JSON answer.
    package func multipart(_ fields: [String], token: String?, preflight: Bool = true) throws -> (status: Int, json: [String: Any]) {
        var arguments = ["-o", "-", "-w", "\n%{http_code}", "http://127.0.0.1:\(port)/graphql"]
        if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        if preflight { arguments += ["-H", "GraphQL-Require-Preflight: 1"] }
        for field in fields { arguments += ["-F", field] }
        let output = try curl(arguments).output
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        let json = (try? JSONSerialization.jsonObject(with: Data(lines.dropLast().joined(separator: "\n").utf8))) as? [String: Any]
        return (Int(lines.last ?? "") ?? 0, json ?? [:])
    }

    /// Uploads the file at `path` the two-step way (createUpload, then a
    /// PUT of the bytes by curl); the id to pass as an `Upload`.
    package func upload(_ path: String, token: String) async throws -> String {
        let slot = try await graphql("mutation { createUpload { id url } }", token: token)
        guard let id = slot["data"]["createUpload"]["id"].string, let url = slot["data"]["createUpload"]["url"].string else {
            throw UploadFailed(description: "createUpload: \(slot)")
        }
        let output = try curl(["-o", "/dev/null", "-w", "%{http_code}", "-T", path, "http://127.0.0.1:\(port)\(url)"]).output
        guard output == "201" else { throw UploadFailed(description: "PUT \(url): \(output)") }
        return id
    }

    package struct UploadFailed: Error, CustomStringConvertible {
        package var description: String
    }
}
