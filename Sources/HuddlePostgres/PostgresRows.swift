import CLibPQ
import HuddleRuntime

/// The rows of one statement's result, read in place from libpq's result
/// (values are decoded when asked for, not copied up front).
///
/// A result never changes once received, so it may be read from any thread.
public final class PostgresRows: @unchecked Sendable, RandomAccessCollection {
    @usableFromInline let result: OpaquePointer
    public let count: Int
    public let columnCount: Int
    public let columnNames: [String]
    public let columnTypes: [PostgresType]

    init(result: OpaquePointer) {
        self.result = result
        count = Int(PQntuples(result))
        columnCount = Int(PQnfields(result))
        columnNames = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
        columnTypes = (0..<columnCount).map { PostgresType(rawValue: PQftype(result, Int32($0))) }
    }

    deinit { PQclear(result) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    public subscript(position: Int) -> PostgresRow { PostgresRow(rows: self, index: position) }

    /// How many rows an INSERT, UPDATE or DELETE touched (0 for other commands).
    public var affectedRows: Int { Int(String(cString: PQcmdTuples(result))) ?? 0 }

    /// The index of the column named `name`.
    public func column(named name: String) -> Int? { columnNames.firstIndex(of: name) }

    /// The cell's text bytes, or nil for NULL; valid while `self` lives.
    @inlinable
    func withCell<T>(row: Int, column: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> T) rethrows -> T {
        let r = Int32(row), c = Int32(column)
        if PQgetisnull(result, r, c) != 0 { return try body(nil) }
        let length = Int(PQgetlength(result, r, c))
        return try PQgetvalue(result, r, c).withMemoryRebound(to: UInt8.self, capacity: length) {
            try body(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// Decodes one cell. Inlinable, so that callers in other modules get a
    /// version specialised to their type instead of a generic call per cell.
    @inlinable
    public func decode<T: PostgresDecodable>(_ type: T.Type = T.self, row: Int, column: Int) throws -> T {
        precondition(row < count && column < columnCount, "cell (\(row), \(column)) out of range")
        let columnType = columnTypes[column]
        return try withCell(row: row, column: column) { bytes in
            do {
                guard let bytes else { return try T.decodeNull() }
                return try T.decode(postgresText: bytes, type: columnType)
            } catch let error as PostgresError {
                throw annotated(error, column: column)
            }
        }
    }
}

extension PostgresRows {
    @usableFromInline
    func annotated(_ error: PostgresError, column: Int) -> PostgresError {
        var error = error
        error.message = "column \"\(columnNames[column])\": \(error.message)"
        return error
    }
}

/// One row of a result, or the columns of one from `offset` on (a record
/// decoding its own columns out of a row that joined several).
public struct PostgresRow: Sendable {
    public let rows: PostgresRows
    public let index: Int
    /// Added to every column number.
    public let offset: Int

    public init(rows: PostgresRows, index: Int, offset: Int = 0) {
        self.rows = rows
        self.index = index
        self.offset = offset
    }

    /// The same row with its columns numbered from `columns` further on.
    public func shifted(by columns: Int) -> PostgresRow {
        PostgresRow(rows: rows, index: index, offset: offset + columns)
    }

    /// Decodes the value in `column`.
    @inlinable
    public func decode<T: PostgresDecodable>(_ type: T.Type = T.self, at column: Int) throws -> T {
        try rows.decode(type, row: index, column: offset + column)
    }

    /// Decodes the value of the column named `name`.
    public func decode<T: PostgresDecodable>(_ type: T.Type = T.self, named name: String) throws -> T {
        guard let column = rows.column(named: name) else {
            throw PostgresError(.decoding, "no column named \"\(name)\"")
        }
        return try rows.decode(type, row: index, column: column)
    }

    /// The value in `column`, decoded by its column type.
    public func value(at column: Int) throws -> PostgresValue {
        try rows.decode(PostgresValue.self, row: index, column: offset + column)
    }
}
