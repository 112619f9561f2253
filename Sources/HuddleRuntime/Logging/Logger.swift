import Formats

#if canImport(Glibc)
    import Glibc
#endif

/// How much the server says.
public enum LogLevel: String, Sendable, CaseIterable, Comparable {
    case debug, info, warning, error, off

    public static func < (left: LogLevel, right: LogLevel) -> Bool {
        allCases.firstIndex(of: left)! < allCases.firstIndex(of: right)!
    }
}

/// Writes one JSON object per line, so log collectors need no parsing
/// rules of their own.
public struct Logger: Sendable {
    public var level: LogLevel
    private let sink: @Sendable (String) -> Void

    /// `sink` gets each line without its newline; by default standard error.
    public init(level: LogLevel = .info, sink: @escaping @Sendable (String) -> Void = Logger.standardError) {
        self.level = level
        self.sink = sink
    }

    public static let standardError: @Sendable (String) -> Void = { line in
        // One write(2) per line, so lines from several loops never interleave.
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    public enum Value: Sendable {
        case string(String)
        case int(Int)
        case double(Double)
    }

    public func log(_ level: LogLevel, _ message: String, _ fields: KeyValuePairs<String, Value?> = [:]) {
        guard level >= self.level, level != .off else { return }
        var line = "{\"level\":\"\(level.rawValue)\",\"msg\":"
        Self.appendString(message, to: &line)
        for (key, value) in fields {
            guard let value else { continue }
            line += ",\"\(key)\":"
            switch value {
            case .string(let text): Self.appendString(text, to: &line)
            case .int(let number): line += String(number)
            case .double(let number): line += String(format3(number))
            }
        }
        line += "}"
        sink(line)
    }

    private static func appendString(_ text: String, to line: inout String) {
        line += JSONText.quoted(text)
    }
}

/// Milliseconds with three decimals: enough for latency, short to read.
private func format3(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let fraction = String(abs(thousandths) % 1000)
    return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}
