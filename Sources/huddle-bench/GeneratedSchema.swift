/// A deterministic, realistic SDL document of about a given size, for
/// benchmarks: object types with descriptions, arguments and directives,
/// interfaces, unions, enums and input objects, in the proportions of
/// a large production schema.
struct GeneratedSchema {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// xorshift64*: a fixed sequence, so every run parses the same text.
    private mutating func next(_ bound: Int) -> Int {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return Int((state &* 0x2545_F491_4F6C_DD1D) >> 33) % bound
    }

    private static let words = [
        "user", "session", "sport", "location", "friend", "invitation", "project", "round", "snippet",
        "vote", "pet", "centre", "habit", "checkIn", "meeting", "badge", "karma", "profile", "image",
        "schedule", "score", "comment", "status", "count", "created", "updated", "owner", "member",
    ]
    private static let scalars = ["String", "Int", "Float", "Boolean", "ID", "DateTime"]

    private mutating func name(_ index: Int, capitalized: Bool) -> String {
        let first = Self.words[next(Self.words.count)]
        let second = Self.words[next(Self.words.count)]
        let base = first + second.prefix(1).uppercased() + second.dropFirst() + String(index)
        return capitalized ? base.prefix(1).uppercased() + base.dropFirst() : base
    }

    private mutating func typeReference(_ types: [String]) -> String {
        let named = next(3) == 0 || types.isEmpty ? Self.scalars[next(Self.scalars.count)] : types[next(types.count)]
        switch next(5) {
        case 0: return "[\(named)!]!"
        case 1: return "\(named)!"
        case 2: return "[\(named)]"
        default: return named
        }
    }

    mutating func text(bytes target: Int) -> String {
        var output =
            "type Query {\n  node(id: ID!): ID\n}\n\nscalar DateTime @specifiedBy(url: \"https://www.rfc-editor.org/rfc/rfc3339\")\n\n"
        output += "directive @cost(weight: Int = 1, multipliers: [String!]) repeatable on FIELD_DEFINITION | OBJECT | INTERFACE\n\n"
        var objects: [String] = []
        var inputs: [String] = []
        var index = 0
        while output.utf8.count < target {
            index += 1
            switch next(10) {
            case 0:
                let enumName = name(index, capitalized: true)
                output += "\"\"\"\nThe \(enumName) states.\n\"\"\"\nenum \(enumName) {\n"
                for value in 0..<(3 + next(6)) {
                    output += "  \(name(value, capitalized: false).uppercased())\n"
                }
                output += "}\n\n"
            case 1:
                let inputName = name(index, capitalized: true) + "Input"
                inputs.append(inputName)
                output += "input \(inputName) {\n"
                for field in 0..<(2 + next(6)) {
                    output += "  \(name(field, capitalized: false)): \(Self.scalars[next(Self.scalars.count)])"
                    output += next(3) == 0 ? " = \(next(100))\n" : "\n"
                }
                output += "}\n\n"
            case 2 where objects.count > 3:
                let unionName = name(index, capitalized: true) + "Result"
                var members: [String] = []
                while members.count < 3 {
                    let member = objects[next(objects.count)]
                    if !members.contains(member) { members.append(member) }
                }
                output += "union \(unionName) = \(members.joined(separator: " | "))\n\n"
            default:
                let objectName = name(index, capitalized: true)
                let isInterface = next(6) == 0
                output += "\"A \(objectName.lowercased()) as the apps see it.\"\n"
                output += isInterface ? "interface \(objectName)" : "type \(objectName)"
                output += next(4) == 0 ? " @cost(weight: \(next(10)))" : ""
                output += " {\n"
                for field in 0..<(3 + next(10)) {
                    if next(3) == 0 {
                        output += "  \"Field number \(field), documented.\"\n"
                    }
                    output += "  \(name(field, capitalized: false))"
                    if next(3) == 0 {
                        output +=
                            inputs.isEmpty
                            ? "(first: Int = 10, after: String)"
                            : "(first: Int = 10, after: String, filter: \(inputs[next(inputs.count)]))"
                    }
                    output += ": \(typeReference(objects))"
                    output += next(8) == 0 ? " @deprecated(reason: \"Use another field.\")\n" : "\n"
                }
                output += "}\n\n"
                if !isInterface { objects.append(objectName) }
            }
        }
        return output
    }
}
