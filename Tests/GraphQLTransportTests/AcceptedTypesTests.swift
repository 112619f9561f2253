import HuddleRuntime
import TestSupport
import Testing

@testable import GraphQLTransport

/// The Accept header read in one pass (`AcceptedTypes`) answers as the
/// three readings it replaced, which split the header into strings: kept
/// here as the reference, and compared on the headers clients send and on
/// generated ones.
@Suite struct AcceptedTypesTests {
    @Test func readsWhatClientsSend() {
        let cases: [(String?, ResponseMediaType?, multipart: Bool, eventStream: Bool)] = [
            (nil, .json, false, false),
            ("", .json, false, false),
            (" \t", .json, false, false),
            ("*/*", .json, false, false),
            ("application/graphql-response+json, application/json;q=0.9", .graphQLResponseJSON, false, false),
            ("application/json, application/graphql-response+json", .graphQLResponseJSON, false, false),
            ("application/graphql-response+json;q=0.5, application/json", .json, false, false),
            ("application/graphql-response+json;charset=latin1, application/json;q=0.1", .json, false, false),
            ("APPLICATION/JSON; CHARSET=\"UTF-8\"", .json, false, false),
            ("text/html", nil, false, false),
            ("application/json;q=0", nil, false, false),
            ("text/event-stream", nil, false, true),
            ("text/event-stream;q=0, application/json", .json, false, false),
            ("multipart/mixed;deferSpec=20220824, application/json", .json, true, false),
            ("multipart/mixed;incrementalSpec=v0.2;q=0.5", .json, true, false),
            ("multipart/mixed; q=0", nil, false, false),
        ]
        for (accept, response, multipart, eventStream) in cases {
            let read = AcceptedTypes(accept: accept)
            #expect(read.response == response, "\(accept.debugDescription)")
            #expect(read.multipart == multipart, "\(accept.debugDescription)")
            #expect(read.eventStream == eventStream, "\(accept.debugDescription)")
            #expect(read == Self.reference(accept), "\(accept.debugDescription)")
        }
    }

    /// Headers put together from the pieces that steer each rule: media
    /// types in any case, parameters with and without values, stray
    /// separators, spaces and tabs, numbers good and bad.
    @Test func answersAsTheSplittingReadingsOnGeneratedHeaders() {
        let pieces = [
            "application/json", "APPLICATION/graphql-response+JSON", "application/*", "*/*", "multipart/mixed", "text/event-stream",
            "Application/JSON", "Multipart/Mixed", "TEXT/Event-Stream", "text/html", "q=0", "q=1", "Q=0.5", "q = 0.25", "q=", "=q=0",
            "q==1", "q=abc", "q=1e0", "q=INF", "q=-1", "charset=utf-8", "CHARSET=UTF-8", "charset=\"UTF-8\"", "charset=latin1",
            "charset", "deferSpec=20220824", ",", ";", "=", " ", "\t", "",
        ]
        var generator = SeededGenerator(seed: 36)
        var compared = 0
        for _ in 0..<20_000 {
            var header = ""
            for _ in 0..<Int(generator.next() % 9) {
                header += pieces[Int(generator.next() % UInt64(pieces.count))]
                switch generator.next() % 4 {
                case 0: header += ","
                case 1: header += ";"
                case 2: header += " "
                default: break
                }
            }
            let read = AcceptedTypes(accept: header)
            if read != Self.reference(header) {
                Issue.record("\(header.debugDescription): \(read) against \(Self.reference(header))")
                break
            }
            compared += 1
        }
        #expect(compared == 20_000)
    }

    // MARK: The readings `AcceptedTypes` replaced, as they were

    static func reference(_ accept: String?) -> AcceptedTypes {
        var read = AcceptedTypes(accept: nil)
        read.response = negotiate(accept: accept)
        read.multipart = acceptsMultipart(accept: accept)
        read.eventStream = isEventStreamAccepted(accept: accept)
        return read
    }

    static func negotiate(accept: String?) -> ResponseMediaType? {
        guard let accept, !accept.allSatisfy({ $0 == " " || $0 == "\t" }) else { return .json }
        var best: (type: ResponseMediaType, quality: Double)?
        func consider(_ type: ResponseMediaType, _ quality: Double) {
            guard quality > 0 else { return }
            if let current = best, current.quality > quality || (current.quality == quality && current.type == .graphQLResponseJSON) {
                return
            }
            best = (type, quality)
        }
        for range in accept.split(separator: ",") {
            let parameters = range.split(separator: ";").map { $0.trimmingSpaces().lowercased() }
            guard let mediaRange = parameters.first else { continue }
            var quality = 1.0
            var charsetAcceptable = true
            for parameter in parameters.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces() }
                guard pair.count == 2 else { continue }
                if pair[0] == "q" { quality = Double(pair[1]) ?? 0 }
                if pair[0] == "charset" { charsetAcceptable = pair[1] == "utf-8" || pair[1] == "\"utf-8\"" }
            }
            guard charsetAcceptable else { continue }
            switch mediaRange {
            case "application/graphql-response+json": consider(.graphQLResponseJSON, quality)
            case "application/json": consider(.json, quality)
            case "application/*", "*/*": consider(.json, quality)
            case "multipart/mixed": consider(.json, quality / 2)
            default: continue
            }
        }
        return best?.type
    }

    static func acceptsMultipart(accept: String?) -> Bool {
        accepts("multipart/mixed", accept)
    }

    static func isEventStreamAccepted(accept: String?) -> Bool {
        accepts("text/event-stream", accept)
    }

    static func accepts(_ type: String, _ accept: String?) -> Bool {
        guard let accept else { return false }
        for range in accept.split(separator: ",") {
            let parameters = range.split(separator: ";").map { $0.trimmingSpaces().lowercased() }
            guard parameters.first == type else { continue }
            let quality = parameters.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if quality > 0 { return true }
        }
        return false
    }
}
