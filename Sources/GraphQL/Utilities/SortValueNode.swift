/// graphql-js's sortValueNode: a literal with its object fields in natural
/// order, at every depth, so that two literals differing only in field
/// order compare and print the same.
func sortValueNode(_ value: Value) -> Value {
    switch value {
    case .object(var object):
        object.fields = object.fields
            .map { ObjectField(name: $0.name, value: sortValueNode($0.value), location: $0.location) }
            .sorted { Suggestions.naturalOrder($0.name.value, $1.name.value) < 0 }
        return .object(object)
    case .list(var list):
        list.values = list.values.map(sortValueNode)
        return .list(list)
    default:
        return value
    }
}
