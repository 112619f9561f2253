/// A position in PostgreSQL's write-ahead log (a `pg_lsn`): where a commit
/// ends on the primary, how far a standby has replayed. Written as
/// PostgreSQL writes it, two hexadecimal halves: `16/B374D848`.
public struct WALPosition: Comparable, Hashable, Sendable, CustomStringConvertible {
    public let value: UInt64

    public init(_ value: UInt64) {
        self.value = value
    }

    /// Reads PostgreSQL's text form; nil for anything else.
    public init?(_ text: some StringProtocol) {
        let halves = text.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, halves.allSatisfy({ (1...8).contains($0.count) }),
            let high = UInt64(halves[0], radix: 16), let low = UInt64(halves[1], radix: 16)
        else { return nil }
        value = high << 32 | low
    }

    public var description: String {
        String(value >> 32, radix: 16, uppercase: true) + "/" + String(value & 0xFFFF_FFFF, radix: 16, uppercase: true)
    }

    public static func < (a: WALPosition, b: WALPosition) -> Bool { a.value < b.value }

    /// SQL for the primary's insert position (at or past the end of every
    /// commit made), as a `pg_lsn`: `pageStartSQL` of PostgreSQL's own.
    public static let insertPositionSQL = "(SELECT \(pageStartSQL("i")) FROM pg_current_wal_insert_lsn() i)"

    /// SQL for the `pg_lsn` `position`, or, when it is right past a WAL
    /// page's header (the insert position after a page's start, which no
    /// standby reports until another record is written there), the page's
    /// start: nothing was written between the two.
    public static func pageStartSQL(_ position: String) -> String {
        """
        CASE WHEN (\(position) - '0/0'::pg_lsn) % pg_size_bytes(current_setting('wal_segment_size')) = 40 THEN \(position) - 40
             WHEN (\(position) - '0/0'::pg_lsn) % current_setting('wal_block_size')::numeric = 24 THEN \(position) - 24
             ELSE \(position) END
        """
    }
}
