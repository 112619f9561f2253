import Testing

@testable import HuddleRuntime

/// The bytes a response is written as, compared with the same head built as text.
@Suite struct HTTPResponseTests {
    private func wire(_ response: HTTPResponse, forHead: Bool = false, closing: Bool = false) -> String {
        String(decoding: response.serialized(forHead: forHead, closing: closing), as: UTF8.self)
    }

    @Test(arguments: [0, 1, 9, 10, 99, 100, 12_345, 1_000_000])
    func aBodysLengthIsWrittenInDecimal(length: Int) {
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: length)
        let response = HTTPResponse(status: 200, headers: [("Content-Type", "text/plain")], body: body)
        #expect(
            wire(response) == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(length)\r\n\r\n"
                + String(repeating: "x", count: length))
        #expect(wire(response, forHead: true) == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(length)\r\n\r\n")
    }

    @Test(arguments: [
        (101, "Switching Protocols"), (204, "No Content"), (404, "Not Found"), (413, "Content Too Large"), (503, "Service Unavailable"),
    ])
    func everyStatusLineHasItsCodeAndReason(status: Int, reason: String) {
        let response = HTTPResponse(status: status, body: [])
        let length = status >= 200 && status != 204 ? "Content-Length: 0\r\n" : ""
        #expect(wire(response, closing: true) == "HTTP/1.1 \(status) \(reason)\r\n\(length)Connection: close\r\n\r\n")
    }
}
