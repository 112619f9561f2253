import HuddleRuntime
import Testing
import TraceContext

/// W3C Trace Context's `traceparent`, read as the specification says a
/// receiver must (https://www.w3.org/TR/trace-context/#traceparent-header),
/// and the sampler that decides on what it carries.
struct TraceParentTests {
    static let valid = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

    @Test func aValidHeaderIsRead() throws {
        let parent = try #require(TraceParent(header: Self.valid, state: " rojo=00f067aa0ba902b7,congo=t61rcWkgMzE "))
        #expect(parent.traceID.hex == "0af7651916cd43dd8448eb211c80319c" && parent.spanID.hex == "b7ad6b7169203331")
        #expect(parent.isSampled && parent.header == Self.valid)
        #expect(parent.traceState == "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE")
        #expect(TraceParent(header: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00")?.isSampled == false)
        // Flags other than sampled (level 2's random id) are passed on.
        #expect(TraceParent(header: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-03")?.header.hasSuffix("-03") == true)
        #expect(parent.isRemote && !TraceParent(traceID: parent.traceID, spanID: parent.spanID, flags: 1).isRemote)
    }

    @Test(arguments: [
        "",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-0",  // short
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-",  // version 00 is exactly 55
        "00-0AF7651916CD43DD8448EB211C80319C-B7AD6B7169203331-01",  // upper case
        "00-00000000000000000000000000000000-b7ad6b7169203331-01",  // all-zero trace id
        "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",  // all-zero span id
        "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",  // version 255 is invalid
        "0g-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",  // not hex
        "00_0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",  // not a dash
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-0x",
        "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01x",  // a later version's extra field needs a dash
    ])
    func anInvalidHeaderStartsATrace(header: String) {
        #expect(TraceParent(header: header) == nil)
    }

    /// A later version is read by version 00's layout, its further fields ignored.
    @Test func aLaterVersionIsReadByTheFirstsLayout() throws {
        let parent = try #require(TraceParent(header: "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-what-comes-next"))
        #expect(parent.header == Self.valid)
        #expect(TraceParent(header: "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")?.header == Self.valid)
    }

    /// Past 512 characters whole members go from the end; a list with a
    /// member that is not `key=value` in printable ASCII goes whole.
    @Test func aTraceStateIsCutByMembersAndDroppedWhenMalformed() {
        let long = (0..<40).map { "vendor\($0)=\(String(repeating: "x", count: 10))" }.joined(separator: ",")
        let kept = TraceParent(header: Self.valid, state: long)?.traceState ?? ""
        #expect(kept.count <= 512 && kept.count > 400 && long.hasPrefix(kept) && kept.hasSuffix("x"), "\(kept)")
        #expect(TraceParent(header: Self.valid, state: "a=1, ,b=2,")?.traceState == "a=1,b=2")
        #expect(TraceParent(header: Self.valid, state: String(repeating: "a", count: 600))?.traceState == nil)
        #expect(TraceParent(header: Self.valid, state: "a=b\u{7}")?.traceState == nil)
        #expect(TraceParent(header: Self.valid, state: "=b")?.traceState == nil)
    }

    @Test func theSamplerFollowsTheParentAndDecidesByTheTraceID() {
        let sampled = TraceParent(header: Self.valid)!
        let unsampled = TraceParent(header: String(Self.valid.dropLast(2)) + "00")!
        let never = TraceSampler(ratio: 0)
        #expect(never.samples(sampled.traceID, parent: sampled) && !TraceSampler(ratio: 1).samples(unsampled.traceID, parent: unsampled))
        #expect(!never.samples(sampled.traceID, parent: nil) && TraceSampler(ratio: 1).samples(sampled.traceID, parent: nil))
        // Not parent-based: the ratio decides even under a sampled parent.
        #expect(!TraceSampler(ratio: 0, followsParent: false).samples(sampled.traceID, parent: sampled))
        // OpenTelemetry's TraceIdRatioBased: the id's last 56 bits at or
        // above (1 - ratio) of their range, so that services by the
        // specification keep the same traces; about the ratio's share of ids.
        let half = TraceSampler(ratio: 0.5)
        let low = TraceID(high: 1, low: 0xFF00_0000_0000_0001)
        let high = TraceID(high: 1, low: 0x00FF_FFFF_FFFF_FFFF)
        #expect(!half.samples(low, parent: nil) && half.samples(high, parent: nil))
        #expect(half.samples(TraceID(high: 0, low: 0x0080_0000_0000_0000), parent: nil))
        #expect(!half.samples(TraceID(high: 0, low: 0x007F_FFFF_FFFF_FFFF), parent: nil))
        var generator = SystemRandomNumberGenerator()
        let kept = (0..<10_000).filter { _ in half.samples(TraceID(high: generator.next(), low: generator.next()), parent: nil) }.count
        #expect((4_000...6_000).contains(kept), "\(kept)")
    }

    @Test func samplersAreNamedAsOpenTelemetryNamesThem() throws {
        #expect(try TraceSampler.named("parentbased_traceidratio", argument: "0.25").get() == TraceSampler(ratio: 0.25))
        #expect(try TraceSampler.named("traceidratio", argument: "0.5").get() == TraceSampler(ratio: 0.5, followsParent: false))
        #expect(try TraceSampler.named("always_off", argument: nil).get() == TraceSampler(ratio: 0, followsParent: false))
        #expect(try TraceSampler.named("parentbased_always_on", argument: nil).get() == TraceSampler(ratio: 1))
        #expect(throws: TraceSampler.SamplerError.self) { try TraceSampler.named("jaeger_remote", argument: nil).get() }
        #expect(throws: TraceSampler.SamplerError.self) { try TraceSampler.named("traceidratio", argument: "1.5").get() }
    }
}
