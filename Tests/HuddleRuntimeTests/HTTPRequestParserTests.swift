import HuddleRuntime
import RuntimeTestSupport
import TestSupport
import Testing

/// The HTTP/1.1 request parser: framing, pipelining, limits, and the
/// malformed inputs that enable request smuggling.
@Suite struct HTTPRequestParserTests {
    /// The requests in `text`, streamed bodies put back together.
    private func requests(
        _ text: String, limits: HTTPRequestParser.Limits = .init(), splitEvery step: Int? = nil,
        streamsBody: HTTPRequestParser.BodyStreaming? = nil
    ) throws(HTTPError) -> [HTTPRequest] {
        var parser = HTTPRequestParser(limits: limits, streamsBody: streamsBody)
        let bytes = Array(text.utf8)
        var events: [HTTPRequestParser.Event] = []
        var start = 0
        let stride = step ?? max(bytes.count, 1)
        while start < bytes.count {
            let end = min(start + stride, bytes.count)
            events += parser.feed(bytes[start..<end])
            start = end
        }
        var requests: [HTTPRequest] = []
        var streamed: HTTPRequest?
        for event in events {
            switch event {
            case .head: break
            case .request(let request): requests.append(request)
            case .streaming(let head): streamed = HTTPRequest(head: head)
            case .bodyPart(let bytes): streamed!.body += bytes
            case .bodyEnd: requests.append(streamed!)
            case .refused(let error): throw error
            }
        }
        return requests
    }

    private func status(_ text: String, limits: HTTPRequestParser.Limits = .init(), streamsBody: HTTPRequestParser.BodyStreaming? = nil)
        -> Int?
    {
        do {
            _ = try requests(text, limits: limits, streamsBody: streamsBody)
            return nil
        } catch {
            return error.status
        }
    }

    @Test func parsesARequestWithAFixedLengthBody() throws {
        let text = "POST /graphql?x=1 HTTP/1.1\r\nHost: a\r\nContent-Type:  application/json \r\nContent-Length: 7\r\n\r\n{\"a\":1}"
        let parsed = try requests(text)
        #expect(parsed.count == 1)
        #expect(parsed[0].head.method == "POST")
        #expect(parsed[0].head.target == "/graphql?x=1")
        #expect(parsed[0].head.version == .http11)
        #expect(parsed[0].head.header("content-type") == "application/json")
        #expect(String(decoding: parsed[0].body, as: UTF8.self) == "{\"a\":1}")
        #expect(parsed[0].head.keepAlive)
    }

    @Test func parsesTheSameWhicheverWayTheBytesAreSplit() throws {
        let text =
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\nTrailer: x\r\n\r\n"
            + "GET /two HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
        let whole = try requests(text)
        for step in [1, 2, 3, 7] {
            #expect(try requests(text, splitEvery: step) == whole)
        }
        #expect(whole.count == 2)
        #expect(String(decoding: whole[0].body, as: UTF8.self) == "abcde")
        #expect(whole[1].head.target == "/two")
        #expect(!whole[1].head.keepAlive)
    }

    @Test func reportsTheHeadBeforeTheBodyArrives() throws {
        var parser = HTTPRequestParser()
        let events = parser.feed(Array("POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8))
        guard case .head(let head)? = events.first, events.count == 1 else {
            Issue.record("expected only the head, got \(events)")
            return
        }
        #expect(head.expectsContinue)
        let rest = parser.feed(Array("hi".utf8))
        #expect(rest.count == 1)
        // A head that expects nothing is not reported on its own: its request is.
        #expect(parser.feed(Array("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n".utf8)).isEmpty)
        guard case .request(let request)? = parser.feed(Array("hi".utf8)).first else {
            Issue.record("expected the request once its body arrived")
            return
        }
        #expect(request.body == Array("hi".utf8))
    }

    /// After a request to switch protocols the parser stops, and the bytes
    /// that came after it are handed over whole, however the reads split
    /// them (in one read, or across the head's end).
    @Test func keepsTheBytesAfterAnUpgradeForTheNextProtocol() {
        let handshake = "GET /graphql HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n"
        let after: [UInt8] = [0x81, 0x85, 1, 2, 3, 4, 5, 6]
        let whole = Array(handshake.utf8) + after
        for split in [whole.count, handshake.utf8.count - 3, handshake.utf8.count + 2] {
            var parser = HTTPRequestParser()
            var events = parser.feed(whole[..<split])
            events += parser.feed(whole[split...])
            guard case .request(let request)? = events.first, events.count == 1 else {
                Issue.record("expected the upgrade request alone, got \(events) (split at \(split))")
                continue
            }
            #expect(request.head.asksToUpgrade)
            #expect(parser.takeBytesAfterUpgrade() == after, "split at \(split)")
        }
    }

    @Test func ignoresEmptyLinesBeforeARequest() throws {
        #expect(try requests("\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n").count == 1)
    }

    @Test func http10NeedsNoHostAndClosesByDefault() throws {
        let parsed = try requests("GET / HTTP/1.0\r\n\r\nGET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(parsed.map(\.head.keepAlive) == [false, true])
    }

    @Test func refusesWhatCouldSmuggleARequest() {
        let cases: [(String, Int)] = [
            ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx", 400),
            ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1, 1\r\n\r\nx", 400),
            ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +1\r\n\r\nx", 400),
            ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
            ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1000000000000000\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400),
            ("GET / HTTP/1.1\nHost: a\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nX: a\u{1}b\r\nHost: a\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\n\r\n", 400),
            ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
            ("GET  / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
            ("G(T / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
            ("GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505),
            ("GET / SPDY/1\r\nHost: a\r\n\r\n", 400),
            ("GET / HTTP/1.1 \r\nHost: a\r\n\r\n", 400),
            ("GET / HTTP/1.1 x\r\nHost: a\r\n\r\n", 400),
            ("GET /\r\nHost: a\r\n\r\n", 400),
            (" GET / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
            ("GET / \r\nHost: a\r\n\r\n", 400),
            ("GET / HTTP/1.10\r\nHost: a\r\n\r\n", 505),
            ("GET / http/1.1\r\nHost: a\r\n\r\n", 400),
            ("GET / HTTP/\u{301}1.1\r\nHost: a\r\n\r\n", 400),
        ]
        for (text, expected) in cases {
            #expect(status(text) == expected, "\(text.debugDescription)")
        }
    }

    @Test func reportsRequestsBeforeARefusalAndNothingAfter() {
        var parser = HTTPRequestParser()
        let events = parser.feed(Array("GET /a HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\nHost: a\r\n\r\n".utf8))
        guard case .request(let first)? = events.first, events.count == 2 else {
            Issue.record("expected the first request, then the refusal: \(events)")
            return
        }
        #expect(first.head.target == "/a")
        #expect(events.last == .refused(HTTPError(400, "bare LF")))
        #expect(parser.feed(Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8)).isEmpty)
    }

    @Test func limitsTheRequestTarget() {
        let limits = HTTPRequestParser.Limits(maxTargetBytes: 100)
        let atLimit = "/" + String(repeating: "a", count: 99)
        #expect(status("GET \(atLimit) HTTP/1.1\r\nHost: a\r\n\r\n", limits: limits) == nil)
        #expect(status("GET \(atLimit)a HTTP/1.1\r\nHost: a\r\n\r\n", limits: limits) == 414)
        // A line that never ends is refused once it is too long, not buffered forever.
        var parser = HTTPRequestParser(limits: limits)
        #expect(parser.feed(Array(repeating: UInt8(ascii: "a"), count: 1000)) == [.refused(HTTPError(414, "URI too long"))])
    }

    @Test func limitsTheHeaderBlock() {
        let limits = HTTPRequestParser.Limits(maxHeaderBytes: 100)
        // Request line (14 + 2) + "Host: a" (7 + 2) + "X: " and n bytes (3 + n + 2) + the empty line (2) = 100 at the limit.
        let head = "GET / HTTP/1.1\r\nHost: a\r\n"
        let fill = String(repeating: "x", count: 100 - 16 - 9 - 5 - 2)
        #expect(status("\(head)X: \(fill)\r\n\r\n", limits: limits) == nil)
        #expect(status("\(head)X: \(fill)x\r\n\r\n", limits: limits) == 431)
    }

    @Test func limitsTheBody() {
        let limits = HTTPRequestParser.Limits(maxBodyBytes: 10)
        let fixed = { (count: Int) in
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: \(count)\r\n\r\n" + String(repeating: "b", count: count)
        }
        #expect(status(fixed(10), limits: limits) == nil)
        #expect(status(fixed(11), limits: limits) == 413)
        let chunked = { (sizes: [Int]) in
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                + sizes.map { String($0, radix: 16) + "\r\n" + String(repeating: "c", count: $0) + "\r\n" }.joined()
                + "0\r\n\r\n"
        }
        #expect(status(chunked([4, 6]), limits: limits) == nil)
        #expect(status(chunked([4, 7]), limits: limits) == 413)
    }

    @Test func streamsTheBodiesItIsToldToAndCollectsTheRest() throws {
        let text =
            "POST /up HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\n\r\n"
            + "POST /up HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n"
            + "POST /other HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nxyz"
            + "POST /up HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nwxyz"
        let streams: HTTPRequestParser.BodyStreaming = { $0.target == "/up" ? 100 : nil }
        let whole = try requests(text)
        for step in [1, 2, 5, 1000] {
            #expect(try requests(text, splitEvery: step, streamsBody: streams) == whole)
        }
        #expect(whole.map { String(decoding: $0.body, as: UTF8.self) } == ["abcde", "", "xyz", "wxyz"])
        var parser = HTTPRequestParser(streamsBody: streams)
        let events = parser.feed(Array("POST /up HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nwx".utf8))
        #expect(events.count == 2)
        guard case .streaming(let head) = events[0], case .bodyPart(let part) = events[1] else {
            Issue.record("\(events)")
            return
        }
        #expect(head.target == "/up" && part == Array("wx".utf8))
        #expect(parser.feed(Array("yz".utf8)) == [.bodyPart(Array("yz".utf8)), .bodyEnd])
    }

    @Test func aStreamedBodyOfTinyChunksComesOutInOnePiecePerRead() throws {
        var parser = HTTPRequestParser(streamsBody: { _ in 1 << 20 })
        let chunks = String(repeating: "1\r\nx\r\n", count: 1000)
        let events = parser.feed(Array("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\(chunks)".utf8))
        #expect(events.count == 2, "\(events.count) events")
        #expect(events.last == .bodyPart([UInt8](repeating: UInt8(ascii: "x"), count: 1000)))
    }

    @Test func aStreamedBodyHasItsOwnLimit() {
        // Past the collected limit, within the streamed one, and just over it.
        let limits = HTTPRequestParser.Limits(maxBodyBytes: 10)
        let streams: HTTPRequestParser.BodyStreaming = { _ in 20 }
        let fixed = { (count: Int) in
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: \(count)\r\n\r\n" + String(repeating: "b", count: count)
        }
        #expect(status(fixed(20), limits: limits, streamsBody: streams) == nil)
        #expect(status(fixed(21), limits: limits, streamsBody: streams) == 413)
        let chunked = { (sizes: [Int]) in
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                + sizes.map { String($0, radix: 16) + "\r\n" + String(repeating: "c", count: $0) + "\r\n" }.joined()
                + "0\r\n\r\n"
        }
        #expect(status(chunked([10, 10]), limits: limits, streamsBody: streams) == nil)
        #expect(status(chunked([10, 11]), limits: limits, streamsBody: streams) == 413)
    }
}
