/// What a resolver hands back for a field: a value now, or one that needs waiting for.
///
/// A resolver that has its answer returns it directly; that costs the
/// executor no task and no allocation beyond the value. Only `.async`
/// suspends, and all the async fields of one level wait together.
public enum Resolved: Sendable {
    case null
    /// A JSON-like value: a leaf for scalar and enum fields, or the parent of
    /// an object field's selections, read by default resolvers by name.
    case value(GraphQLValue)
    /// A Swift value that becomes the parent of the object's selections.
    /// `typename` names its object type where the field's type is abstract.
    case object(any Sendable, typename: String? = nil)
    /// The items of a list field.
    case list([Resolved])
    /// Work that waits (a database read, a call out); run with the other
    /// waiting fields once no ready work is left.
    case async(@Sendable () async throws -> Resolved)
    /// A value a batch produces (a DataLoader's): the fields waiting on one
    /// batch wait together, as one task, however many there are.
    case deferred(any DeferredValue)

    /// Wraps a leaf or JSON value.
    public static func scalar(_ value: GraphQLValue) -> Resolved { .value(value) }

    /// Whether the value is still to come (`.async` or `.deferred`).
    var waits: Bool {
        switch self {
        case .async, .deferred: true
        default: false
        }
    }
}

/// A value that a batch will produce.
public protocol DeferredValue: Sendable {
    /// The batch it waits for, run once for all the values sharing it.
    var batch: any BatchRunner { get }
    /// The value, once the batch has run.
    func resolve() throws -> Resolved
}

/// Runs the work its deferred values wait for (a loader's batch function).
public protocol BatchRunner: AnyObject, Sendable {
    func run() async
}

/// The parent a field is resolved on.
public enum Parent: Sendable {
    /// The root of an operation with no root value.
    case root
    case value(GraphQLValue)
    case object(any Sendable)

    /// The named member of a JSON object parent, as graphql-js's default resolver reads a property.
    public subscript(member name: String) -> GraphQLValue? {
        guard case .value(let value) = self else { return nil }
        return value[name]
    }
}

/// Everything a resolver may need about the field it resolves.
public struct ResolveInfo: Sendable {
    /// What every object's resolution of this field shares, made once per
    /// field of a selection: an info costs two references, not seven.
    let field: FieldInfo
    /// Where the field's parent sits, shared by its siblings; the path is
    /// spelled out only when a resolver asks for it.
    let parentPath: PathNode?
    let key: PathComponent

    init(field: FieldInfo, parentPath: PathNode?, key: PathComponent) {
        self.field = field
        self.parentPath = parentPath
        self.key = key
    }

    init(
        fieldName: String, parentType: GraphQLNamedType, returnType: GraphQLType, parentPath: PathNode?,
        key: PathComponent, schema: GraphQLSchema, variableValues: [String: GraphQLValue]
    ) {
        self.init(
            field: FieldInfo(
                fieldName: fieldName, parentType: parentType, returnType: returnType, schema: schema,
                variableValues: variableValues
            ),
            parentPath: parentPath, key: key
        )
    }

    public var fieldName: String { field.fieldName }
    public var parentType: GraphQLNamedType { field.parentType }
    public var returnType: GraphQLType { field.returnType }
    public var schema: GraphQLSchema { field.schema }
    public var variableValues: [String: GraphQLValue] { field.variableValues }
    /// The names of the fields the operation selects on this field's value
    /// (after fragments, `@skip` and `@include`) when its type is an object
    /// type; empty otherwise. A resolver may read less when less is asked,
    /// as long as what it returns answers every name here.
    public var selectedFieldNames: Set<String> { field.selectedFieldNames() }

    /// The names of the fields the operation selects on the value of
    /// `name`, one of `selectedFieldNames` whose type is an object type
    /// (all its aliases together); empty otherwise. A resolver that reads
    /// two levels in one statement reads what both ask for.
    public func selectedFieldNames(under name: String) -> Set<String> { field.selectedFieldNames(along: [name]) }

    /// The names of the fields the operation selects at the end of `path`,
    /// a chain of fields of object types from this field's value (all
    /// aliases of each step together): `["edges", "node"]` for the nodes of
    /// a connection; empty where the chain is not selected. A resolver that
    /// joins what its nodes' fields would load reads what they ask for.
    public func selectedFieldNames(along path: [String]) -> Set<String> { field.selectedFieldNames(along: path) }

    /// The response path, keys and list indices, to this field.
    public var path: [PathComponent] { PathNode.components(parentPath, then: key) }
}

/// The parts of a resolver's info that do not depend on the object.
final class FieldInfo: Sendable {
    let fieldName: String
    let parentType: GraphQLNamedType
    let returnType: GraphQLType
    let schema: GraphQLSchema
    let variableValues: [String: GraphQLValue]
    private let lookahead: Lookahead?

    init(
        fieldName: String, parentType: GraphQLNamedType, returnType: GraphQLType, schema: GraphQLSchema,
        variableValues: [String: GraphQLValue], lookahead: Lookahead? = nil
    ) {
        self.fieldName = fieldName
        self.parentType = parentType
        self.returnType = returnType
        self.schema = schema
        self.variableValues = variableValues
        self.lookahead = lookahead
    }

    func selectedFieldNames() -> Set<String> { lookahead?.selectedFieldNames ?? [] }

    func selectedFieldNames(along path: [String]) -> Set<String> { lookahead?.selectedFieldNames(along: path) ?? [] }
}

/// A position in the response, linked to its parent's: built once per
/// object or list, so a resolver's info costs no path of its own.
final class PathNode: Sendable {
    let component: PathComponent
    let parent: PathNode?

    init(_ component: PathComponent, parent: PathNode?) {
        self.component = component
        self.parent = parent
    }

    /// The path to `node` from the root, keys and list indices, then `last` if given.
    static func components(_ node: PathNode?, then last: PathComponent? = nil) -> [PathComponent] {
        var components: [PathComponent] = last.map { [$0] } ?? []
        var node = node
        while let current = node {
            components.append(current.component)
            node = current.parent
        }
        return components.reversed()
    }
}

/// A resolver's inputs: the parent, the coerced arguments, the request's
/// context (authentication, loaders, ...) and the field's info.
public struct ResolverInput: Sendable {
    public let parent: Parent
    public let arguments: [String: GraphQLValue]
    public let context: any Sendable
    public let info: ResolveInfo

    public func argument(_ name: String) -> GraphQLValue? { arguments[name] }
}

/// A field resolver. Throwing makes a field error: the field becomes null
/// (or its nearest nullable parent does) and the error is reported with its path.
public typealias FieldResolver = @Sendable (ResolverInput) throws -> Resolved

/// A resolver that needs nothing but the parent (most fields: a property
/// read). The executor calls it without building a `ResolverInput`.
public typealias ParentResolver = @Sendable (Parent) throws -> Resolved

/// Names the object type of a value where a field's type is an interface or union.
public typealias TypeResolver = @Sendable (Parent, ResolveInfo) -> String?

/// A subscription root field's source event stream (spec §6.2.3.1): the
/// events, each the parent its response is executed on.
public typealias SubscriptionSource = @Sendable (ResolverInput) async throws -> AsyncThrowingStream<Parent, any Error>
