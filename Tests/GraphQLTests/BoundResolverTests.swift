import GraphQL
import Testing

/// The cheaper ways to bind a resolver: from the parent alone, and on the
/// instances of one Swift class, with the class checked once per object.
@Suite struct BoundResolverTests {
    static let sdl = """
        type Query { pets: [Pet!]! pet: Pet }
        type Pet { name: String! shout(times: Int!): String! kind: String! greet(to: String!): String! }
        """

    class Pet: @unchecked Sendable {
        let name: String
        init(name: String) { self.name = name }
    }

    /// A subclass is not the bound class itself: its instances take the checked path.
    final class Puppy: Pet, @unchecked Sendable {}

    struct Robot: Sendable { var name: String }

    func run(_ query: String, pets: [any Sendable]) async throws -> String {
        var builder = ExecutableSchema.Builder(schema: try buildSchema(Self.sdl))
        builder.resolve("Query", "pets") { _ in .list(pets.map { .object($0) }) }
        builder.resolve("Query", "pet") { _ in pets.first.map { .object($0) } ?? .null }
        builder.resolve("Pet", "name", on: Pet.self) { pet in .value(.string(pet.name)) }
        builder.resolve("Pet", "shout", on: Pet.self) { pet in .value(.string(pet.name.uppercased())) }
        builder.resolve("Pet", "greet", on: Pet.self) { pet, input in
            guard case .string(let name)? = input.argument("to") else { return .null }
            let path = input.info.path.map {
                switch $0 {
                case .key(let key): key
                case .index(let index): String(index)
                }
            }.joined(separator: ".")
            return .value(.string("\(pet.name) greets \(name) at \(path) (\(input.context as? String ?? "no context"))"))
        }
        builder.resolveFromParent("Pet", "kind") { parent in
            guard case .object(let value) = parent else { return .null }
            return .value(.string(value is Puppy ? "puppy" : value is Pet ? "pet" : "other"))
        }
        let source = Source(body: query)
        return await execute(schema: try builder.build(), document: try parse(source), source: source, context: "ctx").json()
    }

    @Test func instancesOfTheClassAndOfSubclassesResolve() async throws {
        let json = try await run("{ pets { name kind } }", pets: [Pet(name: "Rex"), Puppy(name: "Bit"), Pet(name: "Tom")])
        #expect(json == #"{"data":{"pets":[{"name":"Rex","kind":"pet"},{"name":"Bit","kind":"puppy"},{"name":"Tom","kind":"pet"}]}}"#)
    }

    @Test func aParentOfAnotherTypeIsAFieldError() async throws {
        let json = try await run("{ pet { kind name } }", pets: [Robot(name: "R2")])
        #expect(
            json.contains(
                #""message":"Pet.name was resolved on a object(GraphQLTests.BoundResolverTests.Robot(name: \"R2\")), not a Pet.""#))
        #expect(json.hasSuffix(#""data":{"pet":null}}"#))
    }

    /// Bound on the class with the field's input: the instance, its
    /// arguments, path and context reach the resolver, a subclass's
    /// instances go the checked way, and any other parent is a field error.
    @Test func instanceBoundFieldsWithInputSeeTheirArgumentsPathAndContext() async throws {
        let json = try await run(#"{ pets { greet(to: "Ann") } }"#, pets: [Pet(name: "Rex"), Puppy(name: "Bit")])
        #expect(
            json
                == #"{"data":{"pets":[{"greet":"Rex greets Ann at pets.0.greet (ctx)"},{"greet":"Bit greets Ann at pets.1.greet (ctx)"}]}}"#
        )
        let wrong = try await run(#"{ pet { greet(to: "Ann") } }"#, pets: [Robot(name: "R2")])
        #expect(
            wrong.contains(
                #""message":"Pet.greet was resolved on a object(GraphQLTests.BoundResolverTests.Robot(name: \"R2\")), not a Pet.""#))
        #expect(wrong.hasSuffix(#""data":{"pet":null}}"#))
        let invalid = try await run(#"{ pet { greet(to: 3) } }"#, pets: [Pet(name: "Rex")])
        #expect(invalid.contains(#"Argument \"to\" has invalid value 3."#))
    }

    /// A resolver bound on a class with its input looks ahead as any
    /// resolver given an input does (loaders choose their columns by it).
    @Test func instanceBoundFieldsWithInputSeeTheNamesSelectedOnTheirValue() async throws {
        let schema = try buildSchema(
            """
            type Query { pet: Pet }
            type Pet { name: String! friend: Pet }
            """)
        let seen = Seen()
        var builder = ExecutableSchema.Builder(schema: schema)
        builder.resolve("Query", "pet") { _ in .object(Pet(name: "Rex")) }
        builder.resolve("Pet", "name", on: Pet.self) { pet in .value(.string(pet.name)) }
        builder.resolve("Pet", "friend", on: Pet.self) { pet, input in
            guard pet.name == "Rex" else { return .null }
            seen.set(input.info.selectedFieldNames)
            return .object(Pet(name: "Tom"))
        }
        let executable = try builder.build()
        #expect(try await Self.namesSeen(running: "{ pet { friend { name } } }", [], on: executable, by: seen) == ["name"])
        #expect(
            try await Self.namesSeen(running: "{ pet { friend { ... on Pet { n: name friend { name } } } } }", [], on: executable, by: seen)
                == ["name", "friend"])
    }

    @Test func argumentsOfAnInstanceBoundFieldAreStillCoerced() async throws {
        #expect(try await run("{ pet { shout(times: 2) } }", pets: [Pet(name: "Rex")]) == #"{"data":{"pet":{"shout":"REX"}}}"#)
        let json = try await run(#"{ pet { shout(times: "loud") } }"#, pets: [Pet(name: "Rex")])
        #expect(json.contains(#"Argument \"times\" has invalid value \"loud\"."#))
        #expect(json.hasSuffix(#""path":["pet","shout"]}],"data":{"pet":null}}"#))
    }

    @Test func resolversSeeTheFieldNamesSelectedOnTheirValue() async throws {
        let schema = try buildSchema(
            """
            type Query { owner: Person name: String }
            type Person { name: String! age: Int! friend: Person }
            """)
        let seen = Seen()
        var builder = ExecutableSchema.Builder(schema: schema)
        builder.resolve("Query", "owner") { input in
            seen.set(input.info.selectedFieldNames)
            return .value(.object([.init("name", .string("Ada")), .init("age", .int(36))]))
        }
        builder.resolve("Query", "name") { input in
            seen.set(input.info.selectedFieldNames)
            return .value(.string("x"))
        }
        builder.readFieldsByName("Person")
        let executable = try builder.build()
        func names(_ query: String, _ variables: [GraphQLValue.Member] = []) async throws -> Set<String> {
            try await Self.namesSeen(running: query, variables, on: executable, by: seen)
        }
        #expect(try await names("{ owner { name } }") == ["name"])
        #expect(try await names("{ owner { ...F a: age friend { age } } } fragment F on Person { name }") == ["name", "age", "friend"])
        #expect(try await names("query($x: Boolean!) { owner { name age @include(if: $x) } }", [.init("x", .boolean(false))]) == ["name"])
        #expect(try await names("{ name }") == [])
    }

    @Test func resolversSeeTheNamesSelectedTwoLevelsDown() async throws {
        let schema = try buildSchema(
            """
            type Query { owner: Person }
            type Person { name: String! age: Int! friend: Person pet: Pet }
            union Pet = Person
            """)
        let seen = Seen()
        var builder = ExecutableSchema.Builder(schema: schema)
        builder.resolve("Query", "owner") { input in
            seen.set(input.info.selectedFieldNames(under: "friend").union(input.info.selectedFieldNames(under: "pet")))
            return .value(.object([.init("name", .string("Ada")), .init("age", .int(36))]))
        }
        builder.readFieldsByName("Person")
        let executable = try builder.build()
        func names(_ query: String, _ variables: [GraphQLValue.Member] = []) async throws -> Set<String> {
            try await Self.namesSeen(running: query, variables, on: executable, by: seen)
        }
        #expect(try await names("{ owner { name friend { age } } }") == ["age"])
        // Every alias of the field, fragments and directives applied.
        #expect(
            try await names(
                "query($x: Boolean!) { owner { f: friend { ...F } friend { name @include(if: $x) friend { age } } } } fragment F on Person { age }",
                [.init("x", .boolean(false))]) == ["age", "friend"])
        #expect(try await names("{ owner { name } }") == [])
        // A union's value is not looked into.
        #expect(try await names("{ owner { pet { ... on Person { name } } } }") == [])
    }

    @Test func resolversSeeTheNamesSelectedAlongAPath() async throws {
        let schema = try buildSchema(
            """
            type Query { people: PersonConnection }
            type PersonConnection { edges: [PersonEdge!]! total: Int! }
            type PersonEdge { cursor: String! node: Person! }
            type Person { name: String! age: Int! friend: Person }
            """)
        let seen = Seen()
        var builder = ExecutableSchema.Builder(schema: schema)
        builder.resolve("Query", "people") { input in
            let info = input.info
            var names = info.selectedFieldNames(along: ["edges", "node"])
            names.formUnion(info.selectedFieldNames(along: ["edges", "node", "friend"]).map { "friend." + $0 })
            // A step of a leaf type, or one that is not selected, has nothing below it.
            names.formUnion(info.selectedFieldNames(along: ["edges", "cursor"]).map { "cursor." + $0 })
            names.formUnion(info.selectedFieldNames(along: ["edges", "missing"]).map { "missing." + $0 })
            seen.set(names)
            return .null
        }
        for type in ["PersonConnection", "PersonEdge", "Person"] { builder.readFieldsByName(type) }
        let executable = try builder.build()
        func names(_ query: String, _ variables: [GraphQLValue.Member] = []) async throws -> Set<String> {
            try await Self.namesSeen(running: query, variables, on: executable, by: seen)
        }
        #expect(try await names("{ people { edges { cursor node { name } } } }") == ["name"])
        // Every alias of each step, fragments and directives applied.
        #expect(
            try await names(
                """
                query($x: Boolean!) { people { e: edges { node { ...F } } edges { n: node { age @include(if: $x) friend { name } } } } }
                fragment F on Person { name }
                """,
                [.init("x", .boolean(false))]) == ["name", "friend", "friend.name"])
        #expect(try await names("{ people { total edges { cursor } } }") == [])
        #expect(try await names("{ people { total } }") == [])
    }

    /// What a resolver put in `seen` while `query` ran.
    static func namesSeen(
        running query: String, _ variables: [GraphQLValue.Member], on executable: ExecutableSchema, by seen: Seen
    ) async throws -> Set<String> {
        let source = Source(body: query)
        _ = await execute(schema: executable, document: try parse(source), source: source, variables: variables)
        return seen.value
    }

    final class Seen: @unchecked Sendable {
        private(set) var value: Set<String> = []
        func set(_ names: Set<String>) { value = names }
    }
}
