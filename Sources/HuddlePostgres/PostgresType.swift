import HuddleRuntime

/// A PostgreSQL type by its OID (`pg_type.oid`), for the built-in types
/// Huddle reads.
public struct PostgresType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let bool = PostgresType(rawValue: 16)
    public static let bytea = PostgresType(rawValue: 17)
    public static let name = PostgresType(rawValue: 19)
    public static let int8 = PostgresType(rawValue: 20)
    public static let int2 = PostgresType(rawValue: 21)
    public static let int4 = PostgresType(rawValue: 23)
    public static let text = PostgresType(rawValue: 25)
    public static let oid = PostgresType(rawValue: 26)
    public static let json = PostgresType(rawValue: 114)
    public static let float4 = PostgresType(rawValue: 700)
    public static let float8 = PostgresType(rawValue: 701)
    public static let bpchar = PostgresType(rawValue: 1042)
    public static let varchar = PostgresType(rawValue: 1043)
    public static let date = PostgresType(rawValue: 1082)
    public static let timestamp = PostgresType(rawValue: 1114)
    public static let timestamptz = PostgresType(rawValue: 1184)
    public static let interval = PostgresType(rawValue: 1186)
    public static let numeric = PostgresType(rawValue: 1700)
    public static let uuid = PostgresType(rawValue: 2950)
    public static let jsonb = PostgresType(rawValue: 3802)

    /// Array type OID → element type.
    private static let elements: [UInt32: PostgresType] = [
        1000: .bool, 1001: .bytea, 1003: .name, 1016: .int8, 1005: .int2, 1007: .int4, 1009: .text,
        1028: .oid, 199: .json, 1021: .float4, 1022: .float8, 1014: .bpchar, 1015: .varchar,
        1182: .date, 1115: .timestamp, 1185: .timestamptz, 1187: .interval, 1231: .numeric,
        2951: .uuid, 3807: .jsonb,
    ]

    /// The element type, when this is one of the built-in array types.
    public var element: PostgresType? { Self.elements[rawValue] }

    public var description: String { "oid \(rawValue)" }
}
