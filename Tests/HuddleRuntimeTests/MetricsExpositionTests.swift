import Foundation
import HuddleRuntime
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What /metrics says of requests, checked in its text: operation names
/// get a label of their own up to the cap and no further, label values are
/// escaped, histograms are cumulative, and the process's own families are there.
@Suite struct MetricsExpositionTests {
    static func operation(_ name: String?, codes: [String] = []) -> LoggedOperation {
        var operation = LoggedOperation(type: "query", name: name)
        operation.errorCodes = codes
        return operation
    }

    static func count(_ text: String, _ labels: String) -> Int? {
        let prefix = "huddle_graphql_operation_duration_seconds_count{\(labels)} "
        return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) }
    }

    static func requests(_ text: String, _ labels: String) -> Int? {
        let prefix = "huddle_http_requests_total{\(labels)} "
        return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) }
    }

    /// A shard remembers where the last request's count is; each count
    /// must still land on its own key when other keys come between (and
    /// make the tables grow) and when /metrics copies the shard meanwhile.
    @Test func repeatedRequestsAreCountedAcrossOtherKindsAndRenders() async {
        let metrics = Metrics(maxOperationNames: 3)
        let counters = metrics.makeRequestCounters()
        for round in 0..<3 {
            for _ in 0..<2 { counters.record(operationType: "query", status: 200, seconds: 0.01, operation: Self.operation("A")) }
            for status in 201..<(230 + round) {
                counters.record(operationType: "query", status: status, seconds: 0.01, operation: Self.operation("N\(status)"))
            }
            counters.record(operationType: "query", status: 200, seconds: 0.01, operation: Self.operation("A"))
            counters.record(operationType: "mutation", status: 200, seconds: 0.01, operation: LoggedOperation(type: "mutation", name: "A"))
            counters.record(operationType: "query", status: 200, seconds: 0.01, operation: Self.operation("A"))
            _ = await metrics.render()
        }
        let text = await metrics.render()
        #expect(Self.requests(text, #"operation_type="query",status="200""#) == 12)
        #expect(Self.requests(text, #"operation_type="mutation",status="200""#) == 3)
        #expect(Self.requests(text, #"operation_type="query",status="229""#) == 3)
        #expect(Self.requests(text, #"operation_type="query",status="231""#) == 1)
        #expect(Self.count(text, #"operation_type="query",operation_name="A""#) == 12)
        #expect(Self.count(text, #"operation_type="mutation",operation_name="A""#) == 3)
        #expect(Self.count(text, #"operation_type="query",operation_name="N201""#) == 3)
        // A, N201 and N202 take the cap's three labels; N203 on are other: 27, 28 and 29 of them.
        #expect(Self.count(text, #"operation_type="query",operation_name="other""#) == 27 + 28 + 29, "\(text)")
    }

    @Test func operationNamesAreLabelledUpToTheCapThenCountedAsOther() async {
        let metrics = Metrics(maxOperationNames: 2)
        let counters = metrics.makeRequestCounters()
        // Another loop's counters share the process's cap.
        let other = metrics.makeRequestCounters()
        counters.record(operationType: "query", status: 200, seconds: 0.01, operation: Self.operation("First"))
        other.record(operationType: "query", status: 200, seconds: 0.01, operation: Self.operation("Second"))
        counters.record(operationType: "query", status: 200, seconds: 0.01, operation: Self.operation("Third"))
        other.record(operationType: "query", status: 200, seconds: 0.01, operation: Self.operation("Fourth"))
        counters.record(operationType: "query", status: 200, seconds: 0.01, operation: Self.operation("First"))
        let text = await metrics.render()
        #expect(Self.count(text, #"operation_type="query",operation_name="First""#) == 2)
        #expect(Self.count(text, #"operation_type="query",operation_name="Second""#) == 1)
        #expect(Self.count(text, #"operation_type="query",operation_name="other""#) == 2, "\(text)")
        #expect(!text.contains("Third") && !text.contains("Fourth"))

        // With no room at all, every name is other; a request without one is anonymous.
        let none = Metrics(maxOperationNames: 0)
        let shard = none.makeRequestCounters()
        shard.record(operationType: "query", status: 200, seconds: 0.01, operation: Self.operation("Named"))
        shard.record(operationType: "query", status: 200, seconds: 0.01, operation: Self.operation(nil))
        #expect(Self.count(await none.render(), #"operation_type="query",operation_name="other""#) == 2)
        let roomy = Metrics(maxOperationNames: 1)
        roomy.makeRequestCounters().record(operationType: "query", status: 200, seconds: 0.01, operation: Self.operation(nil))
        #expect(Self.count(await roomy.render(), #"operation_type="query",operation_name="anonymous""#) == 1)
    }

    @Test func errorsAreCountedByCodeAndLimitsApart() async {
        let metrics = Metrics()
        let counters = metrics.makeRequestCounters()
        counters.record(
            operationType: "query", status: 200, seconds: 0.5, operation: Self.operation("A", codes: ["COST_LIMIT_EXCEEDED"]))
        counters.record(operationType: "query", status: 200, seconds: 2, operation: Self.operation("A", codes: ["FORBIDDEN", "NOT_FOUND"]))
        let text = await metrics.render()
        #expect(text.contains("huddle_graphql_errors_total{code=\"COST_LIMIT_EXCEEDED\"} 1\n"))
        #expect(text.contains("huddle_graphql_errors_total{code=\"FORBIDDEN\"} 1\n"))
        #expect(text.contains("huddle_limit_rejections_total{code=\"COST_LIMIT_EXCEEDED\"} 1\n"))
        #expect(!text.contains("huddle_limit_rejections_total{code=\"FORBIDDEN\"}"))
        // A request refused before any operation was selected counts its code too.
        counters.record(operationType: nil, status: 200, seconds: 0.01, operation: LoggedOperation(failure: "GRAPHQL_PARSE_FAILED"))
        #expect(await metrics.render().contains("huddle_graphql_errors_total{code=\"GRAPHQL_PARSE_FAILED\"} 1\n"))
        // Cumulative buckets: 0.5 s is within le="0.5", 2 s only from le="2.5".
        #expect(text.contains(#"huddle_http_request_duration_seconds_bucket{le="0.5"} 1"#))
        #expect(text.contains(#"huddle_http_request_duration_seconds_bucket{le="2.5"} 2"#))
        #expect(text.contains(#"huddle_http_request_duration_seconds_bucket{le="+Inf"} 2"#))
        #expect(text.contains("huddle_http_request_duration_seconds_sum 2.5\n"))
        for family in ["process_cpu_seconds_total", "process_resident_memory_bytes", "process_open_fds", "process_max_fds"] {
            let value = text.split(separator: "\n").first { $0.hasPrefix(family + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
            #expect((value ?? -1) >= 0, "\(family)")
        }
        #expect(text.contains("huddle_build_info{version=\"\(HuddleVersion.version)\",commit=\"\(HuddleVersion.commit)\"} 1\n"))
    }

    /// Open descriptors are counted as the kernel lists them: fifty more
    /// opened, fifty more counted (other tests' may come and go meanwhile,
    /// so it asks until two looks agree).
    @Test func openDescriptorsAreCounted() async throws {
        func open() async -> Int {
            let text = await Metrics().render()
            let line = text.split(separator: "\n").first { $0.hasPrefix("process_open_fds ") }
            return line.flatMap { Int($0.split(separator: " ")[1]) } ?? -1
        }
        var descriptors: [Int32] = []
        defer { for descriptor in descriptors { close(descriptor) } }
        var matched = false
        for _ in 0..<20 where !matched {
            let before = await open()
            for _ in 0..<50 { descriptors.append(Glibc.open("/dev/null", O_RDONLY)) }
            let after = await open()
            matched = after - before == 50
            for descriptor in descriptors { close(descriptor) }
            descriptors.removeAll()
        }
        #expect(matched)
    }

    /// A name of 64 bytes gets its label, one of 65 counts as other.
    @Test func longNamesCountAsOther() async {
        let metrics = Metrics(maxOperationNames: 10)
        let counters = metrics.makeRequestCounters()
        let fits = String(repeating: "a", count: 64), over = String(repeating: "b", count: 65)
        counters.record(operationType: "query", status: 200, seconds: 0.01, operation: Self.operation(fits))
        counters.record(operationType: "query", status: 200, seconds: 0.01, operation: Self.operation(over))
        let text = await metrics.render()
        #expect(Self.count(text, "operation_type=\"query\",operation_name=\"\(fits)\"") == 1)
        #expect(Self.count(text, #"operation_type="query",operation_name="other""#) == 1)
        #expect(!text.contains(over))
    }

    /// A name a handler passes as it is reaches the text escaped, as the
    /// exposition format writes a label value.
    @Test func labelValuesAreEscaped() async {
        let metrics = Metrics()
        metrics.makeRequestCounters().record(operationType: "query", status: 200, seconds: 0.01, operation: Self.operation("a\"b\\c\nd"))
        #expect(Self.count(await metrics.render(), #"operation_type="query",operation_name="a\"b\\c\nd""#) == 1)
    }
}

extension LoggedOperation {
    init(failure code: String) {
        self.init()
        errorCodes = [code]
    }
}
