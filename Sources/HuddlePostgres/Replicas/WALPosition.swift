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
    /// commit made), as a `pg_lsn`. Right after a page's start, PostgreSQL
    /// gives the position past the page's header, which no standby reports
    /// until another record is written there: the page's start is given
    /// instead (nothing was written between the two).
    public static let insertPositionSQL = """
        (SELECT CASE WHEN n % pg_size_bytes(current_setting('wal_segment_size')) = 40 THEN i - 40
                     WHEN n % current_setting('wal_block_size')::numeric = 24 THEN i - 24 ELSE i END
         FROM pg_current_wal_insert_lsn() i, LATERAL (SELECT i - '0/0'::pg_lsn AS n) bytes)
        """
}
