/// One suggestion for the word at a cursor.
public struct CompletionItem: Sendable, Hashable {
    public enum Kind: String, Sendable {
        case field, argument, enumValue, variable, fragment, directive, type, keyword, value, inputField
    }

    /// The text the word becomes.
    public var label: String
    public var kind: Kind
    /// A type (`String!`, `[User!]!`) or, for a fragment, its type condition.
    public var detail: String?
    /// The schema's description of what is suggested.
    public var documentation: String?
    public var isDeprecated: Bool

    public init(label: String, kind: Kind, detail: String? = nil, documentation: String? = nil, isDeprecated: Bool = false) {
        self.label = label
        self.kind = kind
        self.detail = detail
        self.documentation = documentation
        self.isDeprecated = isDeprecated
    }
}

/// The suggestions at a cursor and the range of text each replaces.
public struct CompletionList: Sendable, Hashable {
    public var items: [CompletionItem]
    public var from: TextPosition
    public var to: TextPosition
}

extension LanguageService {
    /// What may be written at `position`: the fields of the selection set's
    /// type, a field's or directive's arguments, the values of an argument's
    /// type (enum values, booleans, the operation's variables), input
    /// object fields, fragment names that fit, type conditions, directives
    /// allowed at that place, input types for variables, and keywords.
    /// Items starting with the word being written come first (in schema
    /// order), then those merely containing it; deprecated ones last.
    public func completions(in text: String, at position: TextPosition) -> CompletionList {
        let bytes = Array(text.utf8)
        let cursor = bytes.withUnsafeBufferPointer { position.offset(in: $0) }
        let (context, word, variables) = CompletionReader.context(in: bytes, at: cursor, schema: schema)
        let prefix = String(decoding: bytes[word], as: UTF8.self)
        var items = suggestions(for: context, variables: variables, in: bytes)
        items = Self.filter(items, by: prefix)
        let (from, to) = bytes.withUnsafeBufferPointer {
            (TextPosition(offset: word.lowerBound, in: $0), TextPosition(offset: word.upperBound, in: $0))
        }
        return CompletionList(items: items, from: from, to: to)
    }

    private func suggestions(
        for context: CompletionContext, variables: [(name: String, type: GraphQLType?)], in bytes: [UInt8]
    ) -> [CompletionItem] {
        switch context {
        case .none:
            return []
        case .keywords(let keywords):
            return keywords.map { CompletionItem(label: $0, kind: .keyword) }
        case .selection(let parent, _):
            guard let parent, parent.isCompositeType else { return [] }
            var fields = parent.kind == .union ? [] : parent.fields
            if parent === schema.queryType {
                fields += [MetaFields.schema, MetaFields.type]
            }
            fields.append(MetaFields.typename)
            return fields.map {
                CompletionItem(
                    label: $0.name, kind: .field, detail: $0.type.description, documentation: $0.description,
                    isDeprecated: $0.deprecationReason != nil
                )
            }
        case .spread(let parent):
            // Only here is the whole document read: fragments may be defined after the cursor.
            let fitting = fragmentDefinitions(in: bytes).filter { fragment in
                guard let parent, let condition = schema.type(named: fragment.typeCondition) else { return true }
                return overlaps(parent, condition)
            }
            return fitting.map { CompletionItem(label: $0.name, kind: .fragment, detail: "on " + $0.typeCondition) }
                + [CompletionItem(label: "on", kind: .keyword)]
        case .typeCondition(let parent):
            return schema.types
                .filter { type in
                    type.isCompositeType && !type.name.hasPrefix("__") && (parent.map { overlaps($0, type) } ?? true)
                }
                .map { CompletionItem(label: $0.name, kind: .type, detail: $0.kind.rawValue, documentation: $0.description) }
        case .argument(let definitions, let given):
            return definitions.filter { !given.contains($0.name) }.map(Self.item(argument:))
        case .value(let type):
            return values(of: type)
                + variables.filter { fits($0.type, into: type) }.map {
                    CompletionItem(label: "$" + $0.name, kind: .variable, detail: $0.type?.description)
                }
        case .variable(let type):
            return variables.filter { fits($0.type, into: type) }.map {
                CompletionItem(label: $0.name, kind: .variable, detail: $0.type?.description)
            }
        case .objectField(let type, let given):
            return (type?.inputFields ?? []).filter { !given.contains($0.name) }.map {
                var item = Self.item(argument: $0)
                item.kind = .inputField
                return item
            }
        case .directive(let location):
            return schema.directives.filter { $0.locations.contains(location) }.map {
                CompletionItem(label: $0.name, kind: .directive, documentation: $0.description)
            }
        case .inputType:
            return schema.types.filter { $0.isInputType && !$0.name.hasPrefix("__") }.map {
                CompletionItem(label: $0.name, kind: .type, detail: $0.kind.rawValue, documentation: $0.description)
            }
        }
    }

    private static func item(argument: GraphQLInputValue) -> CompletionItem {
        CompletionItem(
            label: argument.name, kind: .argument, detail: argument.type.description, documentation: argument.description,
            isDeprecated: argument.deprecationReason != nil
        )
    }

    /// The literals a value of `type` may be spelt with that are worth offering.
    private func values(of type: GraphQLType?) -> [CompletionItem] {
        guard let type else { return [] }
        var items: [CompletionItem] = []
        let named = type.namedType
        if named.kind == .enum {
            items = named.enumValues.map {
                CompletionItem(
                    label: $0.name, kind: .enumValue, detail: named.name, documentation: $0.description,
                    isDeprecated: $0.deprecationReason != nil
                )
            }
        } else if named.name == "Boolean" && !type.nullableType.isList {
            items = [CompletionItem(label: "true", kind: .value), CompletionItem(label: "false", kind: .value)]
        }
        if !type.isNonNull { items.append(CompletionItem(label: "null", kind: .value)) }
        return items
    }

    /// Whether a variable of `variable`'s type may be used where `expected`
    /// is (spec §5.8.5, without the default value allowance): unknown types fit.
    private func fits(_ variable: GraphQLType?, into expected: GraphQLType?) -> Bool {
        guard let variable, let expected else { return true }
        switch (variable, expected) {
        case (.nonNull(let inner), .nonNull(let expectedInner)): return fits(inner, into: expectedInner)
        case (.nonNull(let inner), _): return fits(inner, into: expected)
        case (_, .nonNull): return false
        case (.list(let inner), .list(let expectedInner)): return fits(inner, into: expectedInner)
        case (.list, _), (_, .list): return false
        case (.named(let a), .named(let b)): return a === b
        }
    }

    /// Whether objects of type `a` may also be of type `b` (a fragment on
    /// one may be spread in a selection set on the other, spec §5.5.2.3).
    private func overlaps(_ a: GraphQLNamedType, _ b: GraphQLNamedType) -> Bool {
        if a === b { return true }
        let left = a.isAbstractType ? schema.possibleTypes(of: a) : [a]
        let right = b.isAbstractType ? schema.possibleTypes(of: b) : [b]
        return left.contains { type in right.contains { $0 === type } }
    }

    /// The document's fragment definitions (name and type condition),
    /// wherever they are, read from its tokens so a document that does not
    /// parse still offers them.
    private func fragmentDefinitions(in bytes: [UInt8]) -> [(name: String, typeCondition: String)] {
        bytes.withUnsafeBufferPointer { buffer in
            var lexer = Lexer(bytes: buffer, source: Source(body: ""))
            var tokens: [Token] = []
            while let token = try? lexer.next(), token.kind != .endOfFile { tokens.append(token) }
            func text(_ token: Token) -> String { String(decoding: buffer[token.start..<token.end], as: UTF8.self) }
            var found: [(name: String, typeCondition: String)] = []
            var depth = 0
            var index = 0
            while index < tokens.count {
                let token = tokens[index]
                switch token.kind {
                case .braceLeft: depth += 1
                case .braceRight: depth = max(0, depth - 1)
                case .name where depth == 0 && index + 3 < tokens.count && text(token) == "fragment":
                    if tokens[index + 1].kind == .name, text(tokens[index + 2]) == "on", tokens[index + 3].kind == .name {
                        found.append((text(tokens[index + 1]), text(tokens[index + 3])))
                    }
                default: break
                }
                index += 1
            }
            return found
        }
    }

    private static func filter(_ items: [CompletionItem], by prefix: String) -> [CompletionItem] {
        let word = prefix.lowercased()
        var starting: [CompletionItem] = []
        var containing: [CompletionItem] = []
        for item in items {
            let label = item.label.lowercased()
            if word.isEmpty || label.hasPrefix(word) || label.hasPrefix("$" + word) {
                starting.append(item)
            } else if label.contains(word) {
                containing.append(item)
            }
        }
        let ordered = starting + containing
        return ordered.filter { !$0.isDeprecated } + ordered.filter(\.isDeprecated)
    }
}
