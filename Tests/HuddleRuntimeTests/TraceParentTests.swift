import HuddleRuntime
import Testing

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
        // Flags other than sampled are kept, but not passed on as set.
        #expect(TraceParent(header: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-03")?.header == Self.valid)
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

    @Test func aTraceStateTooLongOrNotPrintableIsDropped() {
        #expect(TraceParent(header: Self.valid, state: String(repeating: "a", count: 513))?.traceState == nil)
        #expect(TraceParent(header: Self.valid, state: String(repeating: "a", count: 512))?.traceState?.count == 512)
        #expect(TraceParent(header: Self.valid, state: "a=b\u{7}")?.traceState == nil)
    }

    @Test func theSamplerFollowsTheParentAndDecidesByTheTraceID() {
        let sampled = TraceParent(header: Self.valid)!
        let unsampled = TraceParent(header: String(Self.valid.dropLast(2)) + "00")!
        let never = TraceSampler(ratio: 0)
        #expect(never.samples(sampled.traceID, parent: sampled) && !TraceSampler(ratio: 1).samples(unsampled.traceID, parent: unsampled))
        #expect(!never.samples(sampled.traceID, parent: nil) && TraceSampler(ratio: 1).samples(sampled.traceID, parent: nil))
        // Not parent-based: the ratio decides even under a sampled parent.
        #expect(!TraceSampler(ratio: 0, followsParent: false).samples(sampled.traceID, parent: sampled))
        // By the id's last 56 bits: the same id, the same decision, and about the ratio's share of ids.
        let half = TraceSampler(ratio: 0.5)
        let low = TraceID(high: 1, low: 0x0000_0000_0000_0001)
        let high = TraceID(high: 1, low: 0x00FF_FFFF_FFFF_FFFF)
        #expect(half.samples(low, parent: nil) && !half.samples(high, parent: nil))
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
