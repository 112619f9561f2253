/// The kinds of lexical token (spec §2.1), with the descriptions graphql-js
/// uses in its error messages.
public enum TokenKind: UInt8, Sendable, CustomStringConvertible {
    case startOfFile
    case endOfFile
    case bang
    case dollar
    case ampersand
    case parenLeft
    case parenRight
    case dot
    case spread
    case colon
    case equals
    case at
    case bracketLeft
    case bracketRight
    case braceLeft
    case pipe
    case braceRight
    case name
    case int
    case float
    case string
    case blockString

    public var description: String {
        switch self {
        case .startOfFile: "<SOF>"
        case .endOfFile: "<EOF>"
        case .bang: "!"
        case .dollar: "$"
        case .ampersand: "&"
        case .parenLeft: "("
        case .parenRight: ")"
        case .dot: "."
        case .spread: "..."
        case .colon: ":"
        case .equals: "="
        case .at: "@"
        case .bracketLeft: "["
        case .bracketRight: "]"
        case .braceLeft: "{"
        case .pipe: "|"
        case .braceRight: "}"
        case .name: "Name"
        case .int: "Int"
        case .float: "Float"
        case .string: "String"
        case .blockString: "BlockString"
        }
    }

    var isPunctuator: Bool {
        switch self {
        case .bang, .dollar, .ampersand, .parenLeft, .parenRight, .dot, .spread, .colon, .equals,
            .at, .bracketLeft, .bracketRight, .braceLeft, .pipe, .braceRight:
            true
        default:
            false
        }
    }

    /// How an expected token kind is named in "Expected X, found Y." messages.
    var expectation: String { isPunctuator ? "\"\(description)\"" : description }
}

/// One lexical token: its kind and byte range in the source. Names and
/// numbers are read from the range; the cooked value of a string token is
/// handed over separately (`Lexer.stringValue`), which keeps tokens plain
/// values that cost nothing to copy.
struct Token {
    var kind: TokenKind
    var start: Int
    var end: Int

    init(_ kind: TokenKind, _ start: Int, _ end: Int) {
        self.kind = kind
        self.start = start
        self.end = end
    }
}
