import GraphQL

/// Binds resolvers to the schema with the parent's Swift type checked once,
/// here, instead of in every resolver.
package struct SchemaBinder {
    package var builder: ExecutableSchema.Builder

    package init(schema: GraphQLSchema) {
        builder = ExecutableSchema.Builder(schema: schema)
    }

    /// A field of an object type whose parents are `Parent` values.
    package mutating func field<Parent: Sendable>(
        _ type: String, _ name: String,
        _ resolve: @escaping @Sendable (Parent, ResolverInput) throws -> Resolved
    ) {
        builder.resolve(type, name) { input in try resolve(try Self.cast(input.parent, type, name), input) }
    }

    /// A field of an object type whose parents are `Parent` values, read
    /// from the parent alone (no arguments, context or info): the cheapest
    /// kind for the executor to call.
    package mutating func field<Parent: Sendable>(
        _ type: String, _ name: String,
        _ resolve: @escaping @Sendable (Parent) throws -> Resolved
    ) {
        builder.resolveFromParent(type, name) { parent in try resolve(try Self.cast(parent, type, name)) }
    }

    /// A field of an object type whose parents are instances of the class
    /// `Parent`, read from the parent alone; the executor checks the class
    /// once per object.
    package mutating func field<Parent: AnyObject & Sendable>(
        _ type: String, _ name: String,
        _ resolve: @escaping @Sendable (Parent) throws -> Resolved
    ) {
        builder.resolve(type, name, on: Parent.self, resolve)
    }

    /// A field of an object type whose parents are instances of the class
    /// `Parent`, with the field's input; the executor checks the class once
    /// per object instead of each resolver casting its parent.
    package mutating func field<Parent: AnyObject & Sendable>(
        _ type: String, _ name: String,
        _ resolve: @escaping @Sendable (Parent, ResolverInput) throws -> Resolved
    ) {
        builder.resolve(type, name, on: Parent.self, resolve)
    }

    /// The parent as the Swift type its fields are bound for.
    private static func cast<Value>(_ parent: Parent, _ type: String, _ name: String) throws -> Value {
        guard case .object(let value) = parent, let typed = value as? Value else {
            throw GraphQLError(message: "\(type).\(name) was resolved on a \(parent), not a \(Value.self).")
        }
        return typed
    }

    /// A root field (Query or Mutation).
    package mutating func root(_ type: String, _ name: String, _ resolve: @escaping @Sendable (ResolverInput) throws -> Resolved) {
        builder.resolve(type, name, resolve)
    }

    /// A root field whose work waits (a database statement).
    package mutating func rootAsync(_ type: String, _ name: String, _ resolve: @escaping @Sendable (ResolverInput) async throws -> Resolved)
    {
        builder.resolve(type, name) { input in .async { try await resolve(input) } }
    }
}
