import Foundation
import HuddleRuntime

/// Any value a column holds, decoded by the column's type: for code that
/// does not know the types ahead (tools, tests, `huddle` commands).
public enum PostgresValue: Hashable, Sendable, PostgresDecodable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case numeric(PostgresNumeric)
    case text(String)
    case uuid(UUID)
    case bytes([UInt8])
    case date(PostgresDate)
    case timestamp(Date)
    case interval(PostgresInterval)
    case json(PostgresJSON)
    case array([PostgresValue])

    public static func decodeNull() throws -> PostgresValue { .null }

    public static func decode(postgresText bytes: UnsafeBufferPointer<UInt8>, type: PostgresType) throws -> PostgresValue {
        switch type {
        case .bool: return .bool(try Bool.decode(postgresText: bytes, type: type))
        case .int2, .int4, .int8, .oid: return .integer(try Int64.decode(postgresText: bytes, type: type))
        case .float4, .float8: return .double(try Double.decode(postgresText: bytes, type: type))
        case .numeric: return .numeric(try PostgresNumeric.decode(postgresText: bytes, type: type))
        case .uuid: return .uuid(try UUID.decode(postgresText: bytes, type: type))
        case .bytea: return .bytes(try PostgresBytes.decodeHex(bytes))
        case .date: return .date(try PostgresDate.decode(postgresText: bytes, type: type))
        case .timestamp, .timestamptz: return .timestamp(try Date.decode(postgresText: bytes, type: type))
        case .interval: return .interval(try PostgresInterval.decode(postgresText: bytes, type: type))
        case .json, .jsonb: return .json(try PostgresJSON.decode(postgresText: bytes, type: type))
        default:
            if let element = type.element {
                var values: [PostgresValue] = []
                try PostgresArrayText.forEachElement(of: bytes) { text in
                    values.append(try text.map { try decode(postgresText: $0, type: element) } ?? .null)
                }
                return .array(values)
            }
            return .text(String(decoding: bytes, as: UTF8.self))
        }
    }
}
