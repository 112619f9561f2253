import Foundation
import HuddleRuntime
import Synchronization
import TestSupport

/// A server on a loop of its own, on a free port.
package final class RunningServer: Sendable {
    package let loop = EventLoop()
    package let server: HTTPServer
    package let finished = Atomic<Bool>(false)
    package let handled = Counter()

    package init(
        configure: (inout HTTPServer.Configuration) -> Void = { _ in }, webSocket: WebSocketService? = nil, handler: HTTPHandler? = nil
    ) async throws {
        var configuration = HTTPServer.Configuration()
        configuration.port = 0
        configuration.logger = Logger(level: .warning)
        configure(&configuration)
        let loop = loop
        let handled = handled
        server = HTTPServer(loop: loop, configuration: configuration, webSocket: webSocket) { request in
            handled.increment()
            if let handler { return await handler(request) }
            return await RunningServer.echo(request, loop: loop)
        }
        Thread { [self] in
            loop.run()
            finished.store(true, ordering: .releasing)
        }.start()
        let server = server
        try await Task(executorPreference: loop) { try server.start() }.value
    }

    /// Answers with the method, target and body; `/slow` first waits,
    /// `/slowest` longer (longer than a busy machine takes to start a task).
    package static func echo(_ request: HTTPRequest, loop: EventLoop) async -> HTTPResponse {
        if request.head.target.hasPrefix("/slowest") {
            await loop.sleep(for: .milliseconds(800))
        } else if request.head.target.hasPrefix("/slow") {
            await loop.sleep(for: .milliseconds(100))
        }
        let body = "\(request.head.method) \(request.head.target) \(String(decoding: request.body, as: UTF8.self))"
        return HTTPResponse(status: 200, contentType: "text/plain", body: body)
    }

    package var port: Int { server.port }

    package func shutdown() async {
        await beginShutdown().value
    }

    /// Starts the shutdown on the server's loop at once. Unlike an `async
    /// let`, it does not wait for a thread of the test pool, which other
    /// suites' blocking reads may hold for seconds on a busy machine.
    package func beginShutdown() -> Task<Void, Never> {
        let server = server
        return Task(executorPreference: loop) { await server.shutdown() }
    }

    package func stop() async {
        await shutdown()
        loop.stop()
        while !finished.load(ordering: .acquiring) { await Task.yield() }
    }
}

/// A count several threads add to.
package final class Counter: Sendable {
    package init() {}

    private let count = Atomic<Int>(0)
    package func increment() { count.add(1, ordering: .relaxed) }
    package var value: Int { count.load(ordering: .relaxed) }
}
