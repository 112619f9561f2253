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

/// Writes one line per event, each beginning with its time (RFC 3339, UTC,
/// milliseconds) and level: a JSON object per line, so log collectors need
/// no parsing rules of their own, or, for a person at a terminal, the
/// same fields as text (`time level message key=value …`).
public struct Logger: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case json, text

        /// Text when standard error is a terminal, JSON otherwise.
        public static var forStandardError: Format { isatty(2) != 0 ? .text : .json }
    }

    public var level: LogLevel
    public var format: Format
    private let sink: @Sendable (String) -> Void

    /// `sink` gets each line without its newline; by default standard error.
    public init(level: LogLevel = .info, format: Format = .json, sink: @escaping @Sendable (String) -> Void = Logger.standardError) {
        self.level = level
        self.format = format
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

    /// Whether a line at `level` would be written (to skip preparing one that would not).
    public func logs(_ level: LogLevel) -> Bool { level >= self.level && level != .off }

    public func log(_ level: LogLevel, _ message: String, _ fields: KeyValuePairs<String, Value?> = [:]) {
        guard logs(level) else { return }
        emit(level, message, fields)
    }

    private func emit(_ level: LogLevel, _ message: String, _ fields: KeyValuePairs<String, Value?>) {
        switch format {
        case .json: sink(Self.json(level, message, fields))
        case .text: sink(Self.text(level, message, fields))
        }
    }

    /// A line about the server itself (starting, listening, its settings,
    /// stopping), written at `info` whatever the level, unless logging is
    /// off: an operator who keeps only warnings still sees what runs.
    public func announce(_ message: String, _ fields: KeyValuePairs<String, Value?> = [:]) {
        guard level != .off else { return }
        emit(.info, message, fields)
    }

    /// A reason the server cannot start or go on, written whatever the
    /// level, `off` included: the one line an operator must see.
    public func fatal(_ message: String, _ fields: KeyValuePairs<String, Value?> = [:]) {
        emit(.error, message, fields)
    }

    static func json(_ level: LogLevel, _ message: String, _ fields: KeyValuePairs<String, Value?>) -> String {
        var line = "{\"time\":\""
        line += LogTime.now()
        line += "\",\"level\":\"\(level.rawValue)\",\"msg\":"
        line += JSONText.quoted(message)
        for (key, value) in fields {
            guard let value else { continue }
            line += ",\"\(key)\":"
            switch value {
            case .string(let text): line += JSONText.quoted(text)
            case .int(let number): line += String(number)
            case .double(let number): line += format3(number)
            }
        }
        line += "}"
        return line
    }

    static func text(_ level: LogLevel, _ message: String, _ fields: KeyValuePairs<String, Value?>) -> String {
        var line = LogTime.now()
        line += " "
        line += level.rawValue.uppercased()
        line += " "
        line += message
        for (key, value) in fields {
            guard let value else { continue }
            line += " \(key)="
            switch value {
            case .string(let text):
                // Quoted (and so escaped) when it would otherwise read as more
                // than one value, or holds a control character a terminal obeys.
                let plain =
                    !text.isEmpty && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && $0 != "=" && $0 != "\"" }
                line += plain ? text : JSONText.quoted(text)
            case .int(let number): line += String(number)
            case .double(let number): line += format3(number)
            }
        }
        return line
    }
}

/// The time of a log line, `2026-11-26T16:50:03.123Z`, from the system
/// clock (not a monotonic one: these are read beside other systems' logs).
enum LogTime {
    static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        var seconds = spec.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let milliseconds = Int(spec.tv_nsec / 1_000_000)
        var text = ""
        text.reserveCapacity(24)
        func append(_ value: Int, width: Int) {
            let digits = String(value)
            if digits.count < width { text += String(repeating: "0", count: width - digits.count) }
            text += digits
        }
        append(Int(parts.tm_year) + 1900, width: 4)
        text += "-"
        append(Int(parts.tm_mon) + 1, width: 2)
        text += "-"
        append(Int(parts.tm_mday), width: 2)
        text += "T"
        append(Int(parts.tm_hour), width: 2)
        text += ":"
        append(Int(parts.tm_min), width: 2)
        text += ":"
        append(Int(parts.tm_sec), width: 2)
        text += "."
        append(milliseconds, width: 3)
        text += "Z"
        return text
    }
}

/// Milliseconds with three decimals: enough for latency, short to read.
private func format3(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let fraction = String(abs(thousandths) % 1000)
    return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}
