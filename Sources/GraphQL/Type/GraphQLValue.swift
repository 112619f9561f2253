/// An input value after coercion: what default values, arguments and
/// variables become once checked against their types. Objects keep their
/// fields in order, so printing and serialising is deterministic.
public enum GraphQLValue: Sendable, Hashable {
    case null
    case boolean(Bool)
    case int(Int)
    case float(Double)
    case string(String)
    /// An enum value, by name.
    case `enum`(String)
    case list([GraphQLValue])
    case object([Member])

    public struct Member: Sendable, Hashable {
        public var name: String
        public var value: GraphQLValue

        public init(_ name: String, _ value: GraphQLValue) {
            self.name = name
            self.value = value
        }
    }

    /// An object's members; nil for any other value.
    var objectMembers: [Member]? {
        guard case .object(let members) = self else { return nil }
        return members
    }

    /// An object member by name.
    public subscript(name: String) -> GraphQLValue? {
        guard case .object(let members) = self else { return nil }
        for index in members.indices where members[index].name == name { return members[index].value }
        return nil
    }
}
