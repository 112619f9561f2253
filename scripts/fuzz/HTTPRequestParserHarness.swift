// libFuzzer entry point for HTTPRequestParser, compiled together with the
// parser's source by scripts/fuzz/http-request-parser.
//
// Beyond "no crash, no sanitizer report", it checks that the parser is
// incremental: the input fed at once and fed in two pieces (split where the
// first byte says) must give the same events.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequestParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let input = UnsafeBufferPointer(start: data + 1, count: size - 1)
    let limits = HTTPRequestParser.Limits(maxTargetBytes: 256, maxHeaderBytes: 1024, maxBodyBytes: 4096)
    var whole = HTTPRequestParser(limits: limits)
    let wholeEvents = whole.feed(input)
    let split = input.isEmpty ? 0 : Int(data[0]) % (input.count + 1)
    var pieces = HTTPRequestParser(limits: limits)
    let pieceEvents = pieces.feed(UnsafeBufferPointer(rebasing: input[..<split])) + pieces.feed(UnsafeBufferPointer(rebasing: input[split...]))
    if wholeEvents != pieceEvents {
        fatalError("fed whole: \(wholeEvents)\nfed split at \(split): \(pieceEvents)")
    }
    return 0
}
