// libFuzzer entry point for WebSocketFrameParser, compiled together with the
// parser's source by scripts/fuzz/run.
//
// Beyond "no crash, no sanitizer report", it checks that the parser is
// incremental: the input fed at once and fed in two pieces (split where the
// first byte says) must give the same events.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketFrameParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let input = UnsafeBufferPointer(start: data + 1, count: size - 1)
    let limits = WebSocketFrameParser.Limits(maxMessageBytes: 2048, maxFragments: 8)
    var whole = WebSocketFrameParser(limits: limits)
    let wholeEvents = whole.feed(input)
    let split = input.isEmpty ? 0 : Int(data[0]) % (input.count + 1)
    var pieces = WebSocketFrameParser(limits: limits)
    let pieceEvents = pieces.feed(UnsafeBufferPointer(rebasing: input[..<split])) + pieces.feed(UnsafeBufferPointer(rebasing: input[split...]))
    if wholeEvents != pieceEvents {
        fatalError("fed whole: \(wholeEvents)\nfed split at \(split): \(pieceEvents)")
    }
    return 0
}
