/// A difference between two schemas, as a client sees it.
public struct SchemaChange: Sendable, Hashable {
    /// How a change affects clients: breaking changes fail operations that
    /// were valid; dangerous ones may change what valid operations get (a new
    /// enum value a client does not know, a new default); safe ones cannot.
    public enum Severity: String, Sendable, Hashable, CaseIterable {
        case breaking
        case dangerous
        case safe
    }

    /// graphql-js's change type: `FIELD_REMOVED`, `ARG_DEFAULT_VALUE_CHANGE`,
    /// `TYPE_ADDED`, …
    public var type: String
    public var description: String
    public var severity: Severity
    /// The schema coordinate of what changed (`User.biography`,
    /// `Query.user(id:)`, `@cached(ttl:)`, `Sport.TENNIS`, `User`).
    public var coordinate: String

    public init(type: String, description: String, severity: Severity, coordinate: String) {
        self.type = type
        self.description = description
        self.severity = severity
        self.coordinate = coordinate
    }
}

/// Every change from `old` to `new`: graphql-js 16's
/// `findBreakingChanges` and `findDangerousChanges` (their types, wording
/// and order), then the safe changes, with graphql-js 17's safe change
/// types (`TYPE_ADDED`, `FIELD_ADDED`, `DESCRIPTION_CHANGED`, …) in
/// graphql-js 16's wording.
public func findSchemaChanges(old: GraphQLSchema, new: GraphQLSchema) -> [SchemaChange] {
    var finder = SchemaChangeFinder()
    finder.typeChanges(old, new)
    finder.directiveChanges(old, new)
    return finder.changes.filter { $0.severity != .safe } + finder.changes.filter { $0.severity == .safe }
}

/// graphql-js 16's `findBreakingChanges`.
public func findBreakingChanges(old: GraphQLSchema, new: GraphQLSchema) -> [SchemaChange] {
    findSchemaChanges(old: old, new: new).filter { $0.severity == .breaking }
}

/// graphql-js 16's `findDangerousChanges`.
public func findDangerousChanges(old: GraphQLSchema, new: GraphQLSchema) -> [SchemaChange] {
    findSchemaChanges(old: old, new: new).filter { $0.severity == .dangerous }
}

private struct SchemaChangeFinder {
    var changes: [SchemaChange] = []

    private static let specifiedScalars: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]

    mutating func add(_ severity: SchemaChange.Severity, _ type: String, _ description: String, at coordinate: String) {
        changes.append(SchemaChange(type: type, description: description, severity: severity, coordinate: coordinate))
    }

    /// graphql-js's `diff`: by name, removed and persisted in the old
    /// order, added in the new.
    func diff<T>(_ old: [T], _ new: [T], name: (T) -> String) -> (added: [T], removed: [T], persisted: [(T, T)]) {
        var newByName: [String: T] = [:]
        for item in new { newByName[name(item)] = newByName[name(item)] ?? item }
        let oldNames = Set(old.map(name))
        var removed: [T] = []
        var persisted: [(T, T)] = []
        for item in old {
            if let match = newByName[name(item)] { persisted.append((item, match)) } else { removed.append(item) }
        }
        return (new.filter { !oldNames.contains(name($0)) }, removed, persisted)
    }

    mutating func directiveChanges(_ old: GraphQLSchema, _ new: GraphQLSchema) {
        let directives = diff(old.directives, new.directives, name: \.name)
        for directive in directives.removed {
            add(.breaking, "DIRECTIVE_REMOVED", "\(directive.name) was removed.", at: "@" + directive.name)
        }
        for directive in directives.added { add(.safe, "DIRECTIVE_ADDED", "@\(directive.name) was added.", at: "@" + directive.name) }
        for (oldDirective, newDirective) in directives.persisted {
            let name = oldDirective.name
            let arguments = diff(oldDirective.arguments, newDirective.arguments, name: \.name)
            for argument in arguments.added {
                if argument.isRequired {
                    add(
                        .breaking, "REQUIRED_DIRECTIVE_ARG_ADDED", "A required arg \(argument.name) on directive \(name) was added.",
                        at: "@\(name)(\(argument.name):)")
                } else {
                    add(
                        .safe, "OPTIONAL_DIRECTIVE_ARG_ADDED", "An optional arg \(argument.name) on directive \(name) was added.",
                        at: "@\(name)(\(argument.name):)")
                }
            }
            for argument in arguments.removed {
                add(.breaking, "DIRECTIVE_ARG_REMOVED", "\(argument.name) was removed from \(name).", at: "@\(name)(\(argument.name):)")
            }
            if oldDirective.isRepeatable && !newDirective.isRepeatable {
                add(.breaking, "DIRECTIVE_REPEATABLE_REMOVED", "Repeatable flag was removed from \(name).", at: "@" + name)
            } else if !oldDirective.isRepeatable && newDirective.isRepeatable {
                add(.safe, "DIRECTIVE_REPEATABLE_ADDED", "Repeatable flag was added to \(name).", at: "@" + name)
            }
            for location in oldDirective.locations where !newDirective.locations.contains(location) {
                add(.breaking, "DIRECTIVE_LOCATION_REMOVED", "\(location.rawValue) was removed from \(name).", at: "@" + name)
            }
            for location in newDirective.locations where !oldDirective.locations.contains(location) {
                add(.safe, "DIRECTIVE_LOCATION_ADDED", "\(location.rawValue) was added to \(name).", at: "@" + name)
            }
            describe(oldDirective.description, newDirective.description, of: "@" + name, at: "@" + name)
        }
    }

    mutating func typeChanges(_ old: GraphQLSchema, _ new: GraphQLSchema) {
        let types = diff(old.types, new.types, name: \.name)
        for type in types.removed {
            add(
                .breaking, "TYPE_REMOVED",
                Self.specifiedScalars.contains(type.name)
                    ? "Standard scalar \(type.name) was removed because it is not referenced anymore." : "\(type.name) was removed.",
                at: type.name)
        }
        for type in types.added { add(.safe, "TYPE_ADDED", "\(type.name) was added.", at: type.name) }
        for (oldType, newType) in types.persisted {
            switch (oldType.kind, newType.kind) {
            case (.enum, .enum): enumChanges(oldType, newType)
            case (.union, .union): unionChanges(oldType, newType)
            case (.inputObject, .inputObject): inputObjectChanges(oldType, newType)
            case (.object, .object), (.interface, .interface):
                fieldChanges(oldType, newType)
                interfaceChanges(oldType, newType)
            case (.scalar, .scalar): break
            default:
                add(
                    .breaking, "TYPE_CHANGED_KIND",
                    "\(oldType.name) changed from \(Self.kindName(oldType.kind)) to \(Self.kindName(newType.kind)).", at: oldType.name)
            }
            describe(oldType.description, newType.description, of: oldType.name, at: oldType.name)
        }
    }

    mutating func inputObjectChanges(_ old: GraphQLNamedType, _ new: GraphQLNamedType) {
        let fields = diff(old.inputFields, new.inputFields, name: \.name)
        for field in fields.added {
            if field.isRequired {
                add(
                    .breaking, "REQUIRED_INPUT_FIELD_ADDED", "A required field \(field.name) on input type \(old.name) was added.",
                    at: "\(old.name).\(field.name)")
            } else {
                add(
                    .dangerous, "OPTIONAL_INPUT_FIELD_ADDED", "An optional field \(field.name) on input type \(old.name) was added.",
                    at: "\(old.name).\(field.name)")
            }
        }
        for field in fields.removed {
            add(.breaking, "FIELD_REMOVED", "\(old.name).\(field.name) was removed.", at: "\(old.name).\(field.name)")
        }
        for (oldField, newField) in fields.persisted {
            fieldTypeChange("\(old.name).\(oldField.name)", oldField.type, newField.type, isSafe: Self.isSafeInputChange)
            describe(oldField.description, newField.description, of: "\(old.name).\(oldField.name)", at: "\(old.name).\(oldField.name)")
        }
    }

    /// A field's type changed: breaking unless `isSafe` allows it.
    mutating func fieldTypeChange(
        _ field: String, _ old: GraphQLType, _ new: GraphQLType, isSafe: (GraphQLType, GraphQLType) -> Bool
    ) {
        let description = "\(field) changed type from \(old) to \(new)."
        if !isSafe(old, new) {
            add(.breaking, "FIELD_CHANGED_KIND", description, at: field)
        } else if old.description != new.description {
            add(.safe, "FIELD_CHANGED_KIND_SAFE", description, at: field)
        }
    }

    mutating func unionChanges(_ old: GraphQLNamedType, _ new: GraphQLNamedType) {
        let members = diff(old.unionMembers, new.unionMembers, name: \.name)
        for member in members.added {
            add(.dangerous, "TYPE_ADDED_TO_UNION", "\(member.name) was added to union type \(old.name).", at: old.name)
        }
        for member in members.removed {
            add(.breaking, "TYPE_REMOVED_FROM_UNION", "\(member.name) was removed from union type \(old.name).", at: old.name)
        }
    }

    mutating func enumChanges(_ old: GraphQLNamedType, _ new: GraphQLNamedType) {
        let values = diff(old.enumValues, new.enumValues, name: \.name)
        for value in values.added {
            add(.dangerous, "VALUE_ADDED_TO_ENUM", "\(value.name) was added to enum type \(old.name).", at: "\(old.name).\(value.name)")
        }
        for value in values.removed {
            add(
                .breaking, "VALUE_REMOVED_FROM_ENUM", "\(value.name) was removed from enum type \(old.name).",
                at: "\(old.name).\(value.name)")
        }
        for (oldValue, newValue) in values.persisted {
            describe(oldValue.description, newValue.description, of: "\(old.name).\(oldValue.name)", at: "\(old.name).\(oldValue.name)")
        }
    }

    mutating func interfaceChanges(_ old: GraphQLNamedType, _ new: GraphQLNamedType) {
        let interfaces = diff(old.interfaces, new.interfaces, name: \.name)
        for interface in interfaces.added {
            add(
                .dangerous, "IMPLEMENTED_INTERFACE_ADDED", "\(interface.name) added to interfaces implemented by \(old.name).", at: old.name
            )
        }
        for interface in interfaces.removed {
            add(
                .breaking, "IMPLEMENTED_INTERFACE_REMOVED", "\(old.name) no longer implements interface \(interface.name).", at: old.name)
        }
    }

    mutating func fieldChanges(_ old: GraphQLNamedType, _ new: GraphQLNamedType) {
        let fields = diff(old.fields, new.fields, name: \.name)
        for field in fields.removed {
            add(.breaking, "FIELD_REMOVED", "\(old.name).\(field.name) was removed.", at: "\(old.name).\(field.name)")
        }
        for field in fields.added { add(.safe, "FIELD_ADDED", "\(old.name).\(field.name) was added.", at: "\(old.name).\(field.name)") }
        for (oldField, newField) in fields.persisted {
            argumentChanges(old, oldField, newField)
            fieldTypeChange("\(old.name).\(oldField.name)", oldField.type, newField.type, isSafe: Self.isSafeOutputChange)
            describe(oldField.description, newField.description, of: "\(old.name).\(oldField.name)", at: "\(old.name).\(oldField.name)")
        }
    }

    mutating func argumentChanges(_ type: GraphQLNamedType, _ old: GraphQLField, _ new: GraphQLField) {
        let place = "\(type.name).\(old.name)"
        let arguments = diff(old.arguments, new.arguments, name: \.name)
        for argument in arguments.removed {
            add(.breaking, "ARG_REMOVED", "\(place) arg \(argument.name) was removed.", at: "\(place)(\(argument.name):)")
        }
        for (oldArgument, newArgument) in arguments.persisted {
            let name = oldArgument.name
            let coordinate = "\(place)(\(name):)"
            if !Self.isSafeInputChange(oldArgument.type, newArgument.type) {
                add(
                    .breaking, "ARG_CHANGED_KIND",
                    "\(place) arg \(name) has changed type from \(oldArgument.type) to \(newArgument.type).", at: coordinate)
            } else if let oldDefault = oldArgument.defaultValue {
                if let newDefault = newArgument.defaultValue {
                    let oldText = Self.defaultText(oldDefault, oldArgument.type)
                    let newText = Self.defaultText(newDefault, newArgument.type)
                    if oldText != newText {
                        add(
                            .dangerous, "ARG_DEFAULT_VALUE_CHANGE",
                            "\(place) arg \(name) has changed defaultValue from \(oldText) to \(newText).", at: coordinate)
                    }
                } else {
                    add(.dangerous, "ARG_DEFAULT_VALUE_CHANGE", "\(place) arg \(name) defaultValue was removed.", at: coordinate)
                }
            } else if let newDefault = newArgument.defaultValue {
                add(
                    .safe, "ARG_DEFAULT_VALUE_ADDED",
                    "\(place) arg \(name) added a defaultValue \(Self.defaultText(newDefault, newArgument.type)).", at: coordinate)
            } else if oldArgument.type.description != newArgument.type.description {
                add(
                    .safe, "ARG_CHANGED_KIND_SAFE",
                    "\(place) arg \(name) has changed type from \(oldArgument.type) to \(newArgument.type).", at: coordinate)
            }
            describe(oldArgument.description, newArgument.description, of: coordinate, at: coordinate)
        }
        for argument in arguments.added {
            if argument.isRequired {
                add(
                    .breaking, "REQUIRED_ARG_ADDED", "A required arg \(argument.name) on \(place) was added.",
                    at: "\(place)(\(argument.name):)")
            } else {
                add(
                    .dangerous, "OPTIONAL_ARG_ADDED", "An optional arg \(argument.name) on \(place) was added.",
                    at: "\(place)(\(argument.name):)")
            }
        }
    }

    mutating func describe(_ old: String?, _ new: String?, of element: String, at coordinate: String) {
        guard old != new else { return }
        let now = new.map { "\"\($0)\"" } ?? "nothing"
        add(.safe, "DESCRIPTION_CHANGED", "Description of \(element) has changed to \(now).", at: coordinate)
    }

    /// A default value as introspection shows it, object fields sorted by
    /// name so that order alone is no change (graphql-js's sortValueNode).
    static func defaultText(_ value: GraphQLValue, _ type: GraphQLType) -> String {
        guard let literal = astFromValue(value, type) else { return "null" }
        return Printer.print(sortValueNode(literal))
    }

    static func isSafeOutputChange(_ old: GraphQLType, _ new: GraphQLType) -> Bool {
        switch old {
        case .list(let oldItem):
            if case .list(let newItem) = new, isSafeOutputChange(oldItem, newItem) { return true }
            if case .nonNull(let inner) = new { return isSafeOutputChange(old, inner) }
            return false
        case .nonNull(let oldInner):
            if case .nonNull(let newInner) = new { return isSafeOutputChange(oldInner, newInner) }
            return false
        case .named(let oldNamed):
            if case .named(let newNamed) = new, newNamed.name == oldNamed.name { return true }
            if case .nonNull(let inner) = new { return isSafeOutputChange(old, inner) }
            return false
        }
    }

    static func isSafeInputChange(_ old: GraphQLType, _ new: GraphQLType) -> Bool {
        switch old {
        case .list(let oldItem):
            if case .list(let newItem) = new { return isSafeInputChange(oldItem, newItem) }
            return false
        case .nonNull(let oldInner):
            if case .nonNull(let newInner) = new { return isSafeInputChange(oldInner, newInner) }
            return isSafeInputChange(oldInner, new)
        case .named(let oldNamed):
            if case .named(let newNamed) = new { return newNamed.name == oldNamed.name }
            return false
        }
    }

    static func kindName(_ kind: TypeKind) -> String {
        switch kind {
        case .scalar: "a Scalar type"
        case .object: "an Object type"
        case .interface: "an Interface type"
        case .union: "a Union type"
        case .enum: "an Enum type"
        case .inputObject: "an Input type"
        }
    }
}
