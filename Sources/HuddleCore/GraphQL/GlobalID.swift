import Foundation
import GraphQL
import HuddleRuntime

/// A global object id: the type name and the row id, base64url-encoded so
/// clients treat it as opaque (`node(id:)` turns it back).
package struct GlobalID: Hashable, Sendable {
    package var type: String
    package var id: Int64

    package init(type: String, id: Int64) {
        self.type = type
        self.id = id
    }

    package var encoded: String { Base64URL.encode("\(type):\(id)") }

    /// Decodes any global id; nil when malformed.
    package static func decode(_ text: String) -> GlobalID? {
        guard text.utf8.count <= 200, let plain = Base64URL.decode(text),
            let colon = plain.firstIndex(of: ":"), let id = Int64(plain[plain.index(after: colon)...]), id > 0
        else { return nil }
        let type = String(plain[..<colon])
        guard !type.isEmpty else { return nil }
        return GlobalID(type: type, id: id)
    }

    /// The row id of a `type` id given as argument `name`, or a BAD_USER_INPUT error.
    package static func id(of type: String, _ text: String, argument name: String) throws -> Int64 {
        guard let global = decode(text), global.type == type else {
            throw APIError.badInput("Argument \"\(name)\" is not a valid \(type) id: \(text.debugDescription).")
        }
        return global.id
    }

    package static func value(_ type: String, _ id: Int64) -> Resolved {
        .scalar(.string(GlobalID(type: type, id: id).encoded))
    }
}
