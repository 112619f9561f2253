import GraphQL
import HuddleRuntime

/// GraphQL over Server-Sent Events (the graphql-sse protocol, distinct
/// connections mode): one operation per request, its results as `next`
/// events, then `complete`. Errors before execution are a `next` event too,
/// so a browser's EventSource can read them.
enum EventStreamResults {
    static let contentType = "text/event-stream; charset=utf-8"
    /// No cache may keep an event stream, and nginx must not buffer it.
    static let headers = [("Content-Type", contentType), ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no")]

    /// A comment: opens the stream at once, and keeps an idle one alive through proxies.
    private static let keepAlive = Array(":\n\n".utf8)

    static func event(_ name: StaticString, _ data: [UInt8]) -> [UInt8] {
        var writer = JSONWriter(capacity: data.count + 24)
        writer.raw("event: ")
        writer.raw(name)
        writer.raw("\ndata: ")
        writer.append(data)
        writer.raw("\n\n")
        return writer.bytes
    }

    private static let complete = Array("event: complete\ndata:\n\n".utf8)

    /// One result (or a request error) and `complete`.
    static func single(_ json: [UInt8]) -> HTTPBodyStream {
        HTTPBodyStream { writer in
            guard await writer.write(event("next", json)) else { return }
            await writer.write(complete)
        }
    }

    /// An incremental delivery: the initial result and each subsequent one.
    static func stream(initial: ExecutionResult, _ execution: IncrementalExecution) -> HTTPBodyStream {
        HTTPBodyStream { writer in
            var json = JSONWriter(capacity: 1_024)
            GraphQLOverHTTP.namingTheRequest(initial).write(to: &json)
            guard await writer.write(event("next", json.bytes)) else { return }
            while let next = await execution.next() {
                var json = JSONWriter(capacity: 1_024)
                next.write(to: &json)
                guard await writer.write(event("next", json.bytes)) else { return }
            }
            await writer.write(complete)
        }
    }

    /// A subscription: each event's result as it comes, a comment every
    /// `keepAliveInterval` while none does; `complete` when the source ends
    /// or the server begins shutting down (so a client knows it was not cut
    /// off, and may reconnect elsewhere). A client that leaves cancels the
    /// task, which ends the source stream. Counted in `metrics` as an
    /// active subscription while it runs.
    static func stream(
        subscription events: AsyncStream<ExecutionResult>, keepAliveInterval: Duration, metrics: Metrics?
    ) -> HTTPBodyStream {
        enum Item {
            case result(ExecutionResult)
            case keepAlive
            case serverStopping
        }
        return HTTPBodyStream { writer in
            metrics?.subscriptionStarted()
            defer { metrics?.subscriptionEnded() }
            guard await writer.write(keepAlive) else { return }
            let (merged, continuation) = AsyncStream<Item>.makeStream()
            let ended = await withTaskGroup(of: Void.self) { group -> Bool in
                group.addTask {
                    for await result in events { continuation.yield(.result(result)) }
                    continuation.finish()
                }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: keepAliveInterval)
                        if !Task.isCancelled { continuation.yield(.keepAlive) }
                    }
                }
                group.addTask {
                    await writer.untilServerStops()
                    if !Task.isCancelled { continuation.yield(.serverStopping) }
                }
                for await item in merged {
                    switch item {
                    case .result(let result):
                        var json = JSONWriter(capacity: 512)
                        GraphQLOverHTTP.namingTheRequest(result).write(to: &json)
                        guard await writer.write(event("next", json.bytes)) else { break }
                        metrics?.subscriptionEventDelivered()
                        continue
                    case .keepAlive:
                        if await writer.write(keepAlive) { continue }
                    case .serverStopping:
                        break
                    }
                    break
                }
                // The source ended or the server is stopping, rather than the client or the writer.
                let ended = !Task.isCancelled && writer.isOpen
                group.cancelAll()
                continuation.finish()
                return ended
            }
            if ended { await writer.write(complete) }
        }
    }
}
