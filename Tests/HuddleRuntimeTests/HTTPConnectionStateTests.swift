import RuntimeTestSupport
import TestSupport
import Testing

@testable import HuddleRuntime

/// The decisions an HTTP connection takes about reading, timers and the
/// peer's EOF, from its state alone (no socket): what HTTPConnection asks
/// around every libuv call.
@Suite struct HTTPConnectionStateTests {
    static func wants(_ state: HTTPConnectionState, unsent: Int = 0, pending maxPipelined: Int = 16) -> Bool {
        state.wantsReading(unsentBytes: unsent, maxUnsentBytes: 1_000, maxPipelinedRequests: maxPipelined)
    }

    @Test func readsWhileTheClientKeepsUpAndRequestsAreWelcome() {
        var state = HTTPConnectionState()
        #expect(Self.wants(state))
        // The client does not read what it is sent: stop reading more requests.
        #expect(Self.wants(state, unsent: 1_000))
        #expect(!Self.wants(state, unsent: 1_001))
        // Pipelined requests up to the limit, not one more.
        state.pendingCount = 15
        #expect(Self.wants(state))
        state.pendingCount = 16
        #expect(!Self.wants(state))
        state.pendingCount = 0
        // Refused input is answered, then the connection closes: nothing more is read.
        state.failure = HTTPError(400, "bad")
        #expect(!Self.wants(state))
    }

    @Test func theLifecycleOnlyMovesForward() {
        var state = HTTPConnectionState()
        state.advance(to: .finishing)
        #expect(!Self.wants(state))
        state.advance(to: .draining)
        // Draining reads to discard, whatever is owed or unsent.
        #expect(Self.wants(state, unsent: 1 << 30))
        state.advance(to: .finishing)
        #expect(state.lifecycle == .draining)
        state.advance(to: .closed)
        #expect(state.isClosed && state.isDraining)
        #expect(!Self.wants(state))
    }

    @Test func aWebSocketReadsWhileItsPeerReads() {
        var state = HTTPConnectionState()
        state.isWebSocket = true
        state.advance(to: .finishing)
        #expect(Self.wants(state, unsent: 1_000))
        #expect(!Self.wants(state, unsent: 1_001))
        #expect(!state.isIdle(parserIsIdle: true))
        #expect(state.timerPhase(parser: .idle) == nil)
        #expect(state.timerPhase(parser: .idle, webSocketClosing: true) == .draining)
    }

    @Test func theTimerFollowsWhereTheNextRequestIs() {
        var state = HTTPConnectionState()
        #expect(state.timerPhase(parser: .idle) == .idle)
        #expect(state.timerPhase(parser: .head) == .head)
        #expect(state.timerPhase(parser: .body) == .body)
        // No timer while a request is with the handler or owed an answer.
        state.processing = true
        #expect(state.timerPhase(parser: .idle) == nil)
        state.processing = false
        state.pendingCount = 1
        #expect(state.timerPhase(parser: .head) == nil)
        state.pendingCount = 0
        state.failure = HTTPError(408, "request timed out")
        #expect(state.timerPhase(parser: .body) == nil)
        state.advance(to: .draining)
        #expect(state.timerPhase(parser: .idle) == .draining)
    }

    @Test func thePeersEOFClosesOrFinishesWhatWasRead() {
        // Nothing owed: close.
        var idle = HTTPConnectionState()
        let idleCloses = idle.peerFinished(parserIsIdle: true)
        #expect(idleCloses)
        // Half a request read, nothing to answer yet: finish (answer what comes, then close).
        var halfway = HTTPConnectionState()
        let halfwayCloses = halfway.peerFinished(parserIsIdle: false)
        #expect(!halfwayCloses)
        #expect(halfway.lifecycle == .finishing)
        // Requests read and owed their answers: finish.
        var owed = HTTPConnectionState()
        owed.pendingCount = 2
        let owedCloses = owed.peerFinished(parserIsIdle: true)
        #expect(!owedCloses)
        #expect(owed.lifecycle == .finishing)
        // A request with the handler: nobody will read its answer; close (and cancel it).
        var working = HTTPConnectionState()
        working.processing = true
        let workingCloses = working.peerFinished(parserIsIdle: true)
        #expect(workingCloses)
        // A WebSocket, or a connection already draining: close.
        var socket = HTTPConnectionState()
        socket.isWebSocket = true
        let socketCloses = socket.peerFinished(parserIsIdle: true)
        #expect(socketCloses)
        var draining = HTTPConnectionState()
        draining.pendingCount = 1
        draining.advance(to: .draining)
        let drainingCloses = draining.peerFinished(parserIsIdle: false)
        #expect(drainingCloses)
    }
}
