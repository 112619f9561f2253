import Foundation

/// A real OTLP/HTTP receiver for a test (Tests/clients/otlp_receiver.py):
/// the official opentelemetry-proto package decodes what the server
/// exports, span by span.
package final class OTLPReceiver: Sendable {
    /// A span as the receiver decoded it.
    package struct Span: Sendable, Decodable {
        package var traceID: String
        package var spanID: String
        /// "" for a root.
        package var parentSpanID: String
        package var name: String
        /// OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer.
        package var kind: Int
        package var start: UInt64
        package var end: UInt64
        package var attributes: [String: Value]
        /// 0 unset, 1 ok, 2 error.
        package var statusCode: Int
        package var events: [String]
        package var flags: UInt32
        package var traceState: String
        package var resource: [String: Value]
        package var scope: String
        package var header: String?

        enum CodingKeys: String, CodingKey {
            case traceID = "trace_id", spanID = "span_id", parentSpanID = "parent_span_id", name, kind, start, end, attributes
            case statusCode = "status_code", events, flags, traceState = "trace_state", resource, scope, header
        }

        package func string(_ name: String) -> String? {
            if case .string(let text)? = attributes[name] { return text }
            return nil
        }

        package func int(_ name: String) -> Int? {
            if case .int(let number)? = attributes[name] { return number }
            return nil
        }
    }

    /// An attribute's value, as JSON carries it.
    package enum Value: Sendable, Decodable, Equatable {
        case string(String), int(Int), double(Double), bool(Bool), list([Value]), null

        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let flag = try? container.decode(Bool.self) {
                self = .bool(flag)
            } else if let number = try? container.decode(Int.self) {
                self = .int(number)
            } else if let number = try? container.decode(Double.self) {
                self = .double(number)
            } else if let text = try? container.decode(String.self) {
                self = .string(text)
            } else {
                self = .list(try container.decode([Value].self))
            }
        }
    }

    package let port: Int
    private let folder: ScratchDirectory
    private let process: Subprocess

    /// Starts a receiver; with `status`, it answers every export so (and keeps nothing).
    package init(status: Int = 200, recordingHeader header: String? = nil) throws {
        folder = try ScratchDirectory("huddle-otlp")
        var arguments = [folder.path("spans.jsonl")]
        if status != 200 { arguments += ["--status", "\(status)"] }
        if let header { arguments += ["--header", header] }
        let started = try startPythonService("otlp_receiver.py", arguments)
        process = started.process
        guard let port = Int(started.firstLine) else {
            process.killAndWait()
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    deinit {
        process.killAndWait()
    }

    /// The receiver's base URL, as `--otlp-endpoint` takes it.
    package var endpoint: String { "http://127.0.0.1:\(port)" }

    /// The spans received so far.
    package func spans() -> [Span] {
        guard let text = try? String(contentsOfFile: folder.path("spans.jsonl"), encoding: .utf8) else { return [] }
        let decoder = JSONDecoder()
        return text.split(separator: "\n").compactMap { try? decoder.decode(Span.self, from: Data($0.utf8)) }
    }

    /// Waits (up to a minute) until spans of `traceID` satisfy `done`; those spans.
    package func waitForSpans(of traceID: String, until done: ([Span]) -> Bool) async throws -> [Span] {
        for _ in 0..<1200 {
            let spans = spans().filter { $0.traceID == traceID }
            if done(spans) { return spans }
            try await Task.sleep(for: .milliseconds(50))
        }
        return spans().filter { $0.traceID == traceID }
    }
}
