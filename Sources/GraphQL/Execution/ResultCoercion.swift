/// Result coercion of leaf values (spec §3.5 and the scalars' serialize in
/// graphql-js 16): what a resolver returned for a scalar or enum field, as
/// the response carries it, or the message of the field error it causes.
enum ResultCoercion {
    /// How a leaf type serialises, worked out once per planned field rather
    /// than by comparing the type's name for every value.
    enum LeafKind {
        case int, float, string, boolean, id, `enum`, customScalar

        init(_ type: GraphQLNamedType) {
            if type.kind == .enum {
                self = .enum
                return
            }
            switch type.name {
            case "Int": self = .int
            case "Float": self = .float
            case "String": self = .string
            case "Boolean": self = .boolean
            case "ID": self = .id
            default: self = .customScalar
            }
        }
    }

    /// Whether a value already has the form the response carries for `kind`,
    /// so that coercing it returns it unchanged: the values resolvers return most.
    @inline(__always)
    static func isSerialized(_ value: GraphQLValue, _ kind: LeafKind) -> Bool {
        switch (kind, value) {
        case (.string, .string), (.id, .string), (.boolean, .boolean): true
        case (.int, .int(let int)): Int32(exactly: int) != nil
        case (.float, .float(let double)): double.isFinite
        default: false
        }
    }

    static func serialize(_ value: GraphQLValue, _ kind: LeafKind, _ type: GraphQLNamedType) -> Result<GraphQLValue, SerializeError> {
        if isSerialized(value, kind) { return .success(value) }
        if kind == .enum {
            switch value {
            case .enum(let name), .string(let name):
                if type.enumValue(named: name) != nil { return .success(.enum(name)) }
            default:
                break
            }
            return .failure(SerializeError("Enum \"\(type.name)\" cannot represent value: \(inspect(value))"))
        }
        switch kind {
        case .int:
            let number: Double?
            switch value {
            case .boolean(let boolean): return .success(.int(boolean ? 1 : 0))
            case .int(let int):
                guard Int32(exactly: int) != nil else {
                    return .failure(SerializeError("Int cannot represent non 32-bit signed integer value: \(inspect(value))"))
                }
                return .success(.int(int))
            case .float(let double): number = double
            case .string(let string) where !string.isEmpty: number = javaScriptNumber(string)
            default: number = nil
            }
            guard let number, number.isFinite, number.rounded() == number else {
                return .failure(SerializeError("Int cannot represent non-integer value: \(inspect(value))"))
            }
            guard let integer = Int32(exactly: number) else {
                return .failure(SerializeError("Int cannot represent non 32-bit signed integer value: \(inspect(value))"))
            }
            return .success(.int(Int(integer)))
        case .float:
            let number: Double?
            switch value {
            case .boolean(let boolean): number = boolean ? 1 : 0
            case .int(let int): number = Double(int)
            case .float(let double): number = double
            case .string(let string) where !string.isEmpty: number = javaScriptNumber(string)
            default: number = nil
            }
            guard let number, number.isFinite else {
                return .failure(SerializeError("Float cannot represent non numeric value: \(inspect(value))"))
            }
            return .success(.float(number))
        case .string:
            switch value {
            case .string, .enum: return .success(.string(stringValue(value)))
            case .boolean(let boolean): return .success(.string(boolean ? "true" : "false"))
            case .int(let int): return .success(.string(String(int)))
            case .float(let double) where double.isFinite: return .success(.string(JavaScriptNumber.format(double)))
            default: return .failure(SerializeError("String cannot represent value: \(inspect(value))"))
            }
        case .boolean:
            switch value {
            case .boolean: return .success(value)
            case .int(let int): return .success(.boolean(int != 0))
            case .float(let double) where double.isFinite: return .success(.boolean(double != 0))
            default: return .failure(SerializeError("Boolean cannot represent a non boolean value: \(inspect(value))"))
            }
        case .id:
            switch value {
            case .string, .enum: return .success(.string(stringValue(value)))
            case .int(let int): return .success(.string(String(int)))
            case .float(let double) where double.isFinite && double.rounded() == double:
                return .success(.string(JavaScriptNumber.format(double)))
            default: return .failure(SerializeError("ID cannot represent value: \(inspect(value))"))
            }
        case .customScalar:
            // A custom scalar without a registered coercion serialises values as they come.
            guard let coercion = type.scalarCoercion else { return .success(value) }
            return coercion.serialize(value).mapError { SerializeError($0.message) }
        case .enum:
            return .success(value)
        }
    }

    private static func stringValue(_ value: GraphQLValue) -> String {
        switch value {
        case .string(let string), .enum(let string): string
        default: ""
        }
    }

    /// JavaScript's Number(string) for the forms a resolver would plausibly
    /// return: decimal numbers with surrounding white space, and 0x/0o/0b integers.
    static func javaScriptNumber(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return 0 }
        let lowered = trimmed.lowercased()
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where lowered.hasPrefix(prefix) {
            return UInt64(lowered.dropFirst(2), radix: radix).map(Double.init)
        }
        switch trimmed {
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: break
        }
        // Swift accepts forms JavaScript does not ("nan", "inf", hex floats); keep to decimal.
        guard trimmed.allSatisfy({ "0123456789+-.eE".contains($0) }) else { return nil }
        return Double(trimmed)
    }

    struct SerializeError: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }
}

private extension String {
    func trimmingCharacters(in set: WhitespaceSet) -> String {
        var scalars = Substring.UnicodeScalarView(unicodeScalars)
        while let first = scalars.first, set.contains(first) { scalars.removeFirst() }
        while let last = scalars.last, set.contains(last) { scalars.removeLast() }
        return String(scalars)
    }
}

/// JavaScript's white space and line terminators, as Number() trims them.
private struct WhitespaceSet {
    static let whitespacesAndNewlines = WhitespaceSet()
    func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }
}
