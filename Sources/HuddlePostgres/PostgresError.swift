import CLibPQ
import HuddleRuntime

/// What went wrong talking to PostgreSQL, typed by SQLSTATE class so that
/// resolvers can turn constraint violations into user errors without
/// reading message text.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        /// 23505: a unique constraint or index.
        case uniqueViolation
        /// 23503.
        case foreignKeyViolation
        /// 23514 (and 23P01, an exclusion constraint).
        case checkViolation
        /// 23502.
        case notNullViolation
        /// 40001: the transaction could not be serialized; retrying may succeed.
        case serializationFailure
        /// 40P01: chosen as a deadlock victim; retrying may succeed.
        case deadlock
        /// 57014: statement_timeout or a cancel request.
        case queryCanceled
        /// The connection could not be made, or broke while a statement was
        /// in flight (its outcome is then unknown).
        case connection
        /// No connection came free within the pool's acquire timeout.
        case poolTimeout
        /// The task waiting for a connection was cancelled.
        case cancelled
        /// The pool is closed.
        case poolClosed
        /// A value could not be decoded into the Swift type asked for.
        case decoding
        /// A parameter held the NUL character (U+0000), which PostgreSQL's
        /// text cannot store; the statement was not sent.
        case nulCharacter
        /// Any other error the server reported.
        case server
    }

    public var kind: Kind
    /// The five-character SQLSTATE, when the server sent one.
    public var sqlState: String?
    public var message: String
    /// The constraint a violation names (`users_username_key`, ...).
    public var constraint: String?
    public var detail: String?

    public init(_ kind: Kind, _ message: String, sqlState: String? = nil, constraint: String? = nil, detail: String? = nil) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
        self.constraint = constraint
        self.detail = detail
    }

    public var description: String {
        var text = message
        if let sqlState { text += " (SQLSTATE \(sqlState))" }
        return text
    }

    /// The refusal of a parameter holding U+0000 (SQLSTATE 22021, what
    /// PostgreSQL itself reports for it where it sees one).
    static let nulCharacter = PostgresError(
        .nulCharacter, "a parameter contains the NUL character (U+0000), which PostgreSQL's text cannot store",
        sqlState: "22021")

    /// Whether running the transaction again may succeed.
    public var isTransient: Bool { kind == .serializationFailure || kind == .deadlock }

    static func kind(forSQLState state: String) -> Kind {
        switch state {
        case "23505": .uniqueViolation
        case "23503": .foreignKeyViolation
        case "23514", "23P01": .checkViolation
        case "23502": .notNullViolation
        case "40001": .serializationFailure
        case "40P01": .deadlock
        case "57014": .queryCanceled
        default:
            // Class 08 is connection exceptions; 57P01-57P03 are the server
            // shutting down or not accepting connections yet.
            state.hasPrefix("08") || state.hasPrefix("57P") ? .connection : .server
        }
    }

    /// The error a failed result carries.
    init(result: OpaquePointer) {
        func field(_ code: Character) -> String? {
            guard let value = PQresultErrorField(result, Int32(code.asciiValue!)) else { return nil }
            return String(cString: value)
        }
        let state = field("C")
        let message = field("M") ?? String(cString: PQresultErrorMessage(result)).trimmingTrailingNewlines()
        self.init(
            state.map(Self.kind(forSQLState:)) ?? .server, message,
            sqlState: state, constraint: field("n"), detail: field("D")
        )
    }

    /// A connection-level failure, with libpq's message.
    init(connection: OpaquePointer?, _ context: String) {
        let message = connection.map { String(cString: PQerrorMessage($0)).trimmingTrailingNewlines() } ?? ""
        self.init(.connection, message.isEmpty ? context : "\(context): \(message)")
    }
}

extension String {
    func trimmingTrailingNewlines() -> String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}
