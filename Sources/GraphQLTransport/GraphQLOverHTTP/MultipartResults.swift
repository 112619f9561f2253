import GraphQL
import HuddleRuntime

/// An incremental delivery over HTTP (the GraphQL-over-HTTP incremental
/// delivery RFC): a `multipart/mixed` body whose parts are the initial
/// result and each subsequent one, as JSON, sent as each is ready.
enum MultipartResults {
    static let contentType = "multipart/mixed; boundary=\"-\""

    /// Each part: the delimiter (CRLF, `--` and the boundary `-`), its
    /// header, a blank line, the JSON. The close delimiter ends the body.
    private static let partHead = Array("\r\n---\r\nContent-Type: application/json; charset=utf-8\r\n\r\n".utf8)
    private static let closeDelimiter = Array("\r\n-----\r\n".utf8)

    static func stream(initial: ExecutionResult, _ execution: IncrementalExecution) -> HTTPBodyStream {
        HTTPBodyStream { writer in
            var part = JSONWriter(capacity: 1_024)
            part.append(partHead)
            GraphQLOverHTTP.namingTheRequest(initial).write(to: &part)
            guard await writer.write(part.bytes) else { return }
            while let next = await execution.next() {
                var part = JSONWriter(capacity: 1_024)
                part.append(partHead)
                next.write(to: &part)
                guard await writer.write(part.bytes) else { return }
            }
            await writer.write(closeDelimiter)
        }
    }
}
