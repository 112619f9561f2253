import GraphQL
import Testing

/// CollectFields and CoerceArgumentValues (spec §6.3.2, §6.4.1).
@Suite struct ExecutionInputsTests {
    let schema = ValidationFixtures.schema

    func collect(_ query: String, on typeName: String = "Dog", variables: [String: GraphQLValue] = [:]) throws -> [String] {
        let document = try parse(query)
        guard case .operation(let operation) = document.definitions[0],
            case .field(let root) = operation.selectionSet.selections[0]
        else { return [] }
        let collector = FieldCollector(schema: schema, document: document, variableValues: variables)
        let grouped = try collector.collectSubfields(schema.type(named: typeName)!, [root])
        return zip(grouped.keys, grouped.fields).map { "\($0):\($1.count)" }
    }

    @Test func groupsFieldsByResponseKeyInFirstAppearanceOrder() throws {
        #expect(
            try collect("{ dog { name barks n: nickname name ...F ... on Dog { barks } } } fragment F on Dog { n: nickname id }")
                == ["name:2", "barks:2", "n:2", "id:1"])
    }

    @Test func appliesSkipAndIncludeWithLiteralsAndVariables() throws {
        let query = """
            query ($yes: Boolean!, $no: Boolean!) { dog {
              a: name @skip(if: true) b: name @skip(if: false) c: name @include(if: false) d: name @include(if: true)
              e: name @skip(if: $yes) f: name @skip(if: $no) g: name @include(if: $no) h: name @include(if: $yes)
              i: name @skip(if: false) @include(if: false) ...F @include(if: $no) ... @skip(if: $yes) { j: name }
            } } fragment F on Dog { k: name }
            """
        #expect(try collect(query, variables: ["yes": .boolean(true), "no": .boolean(false)]) == ["b:1", "d:1", "f:1", "h:1"])
    }

    @Test func followsTypeConditionsAndVisitsEachFragmentOnce() throws {
        let query =
            "{ dog { ... on Cat { meows } ... on Pet { name } ... on CatOrDog { __typename } ...F ...F } } fragment F on Dog { barks }"
        #expect(try collect(query) == ["name:1", "__typename:1", "barks:1"])
        #expect(try collect(query, on: "Cat") == ["meows:1", "name:1", "__typename:1"])
    }

    func arguments(_ field: String, variables: [String: GraphQLValue] = [:]) throws -> Result<[String: GraphQLValue], GraphQLError> {
        let source = Source(body: "{ complicatedArgs { \(field) } }")
        guard case .operation(let operation) = try parse(source).definitions[0],
            case .field(let parent) = operation.selectionSet.selections[0],
            case .field(let node) = parent.selectionSet!.selections[0]
        else { throw GraphQLError(message: "bad query") }
        let definition = schema.type(named: "ComplicatedArgs")!.field(named: node.name.value)!
        do throws(GraphQLError) {
            return .success(
                try ArgumentValues.coerce(
                    definitions: definition.arguments, arguments: node.arguments, variableValues: variables,
                    node: node.location, source: source
                ))
        } catch {
            return .failure(error)
        }
    }

    @Test func coercesLiteralsVariablesAndDefaults() throws {
        #expect(try arguments("multipleOpts(opt1: 5)").get() == ["opt1": .int(5), "opt2": .int(0)])
        #expect(try arguments("multipleOpts(opt1: $v)", variables: ["v": .int(7)]).get() == ["opt1": .int(7), "opt2": .int(0)])
        #expect(try arguments("multipleOpts(opt1: $missing)").get() == ["opt1": .int(0), "opt2": .int(0)])
        #expect(try arguments("multipleOpts(opt1: null)").get() == ["opt1": .null, "opt2": .int(0)])
        #expect(try arguments("stringListArgField(stringListArg: \"one\")").get() == ["stringListArg": .list([.string("one")])])
        #expect(
            try arguments(
                "complexArgField(complexArg: {requiredField: true, nested: {requiredField: $b}})", variables: ["b": .boolean(false)]
            ).get()
                == [
                    "complexArg": .object([
                        .init("requiredField", .boolean(true)), .init("nonNullField", .boolean(false)),
                        .init("nested", .object([.init("requiredField", .boolean(false)), .init("nonNullField", .boolean(false))])),
                    ])
                ])
    }

    @Test func reportsArgumentErrorsAsGraphQLJSDoes() throws {
        func message(_ field: String, _ variables: [String: GraphQLValue] = [:]) throws -> String? {
            guard case .failure(let error) = try arguments(field, variables: variables) else { return nil }
            return "\(error.message) @ \(error.locations.map(\.description).joined(separator: ","))"
        }
        #expect(try message("nonNullIntArgField") == "Argument \"nonNullIntArg\" of required type \"Int!\" was not provided. @ 1:21")
        #expect(
            try message("nonNullIntArgField(nonNullIntArg: $v)")
                == "Argument \"nonNullIntArg\" of required type \"Int!\" was provided the variable \"$v\" which was not provided a runtime value. @ 1:55"
        )
        #expect(
            try message("nonNullIntArgField(nonNullIntArg: $v)", ["v": .null])
                == "Argument \"nonNullIntArg\" of non-null type \"Int!\" must not be null. @ 1:55")
        #expect(
            try message("nonNullIntArgField(nonNullIntArg: null)")
                == "Argument \"nonNullIntArg\" of non-null type \"Int!\" must not be null. @ 1:55")
        #expect(try message("intArgField(intArg: \"x\")") == "Argument \"intArg\" has invalid value \"x\". @ 1:41")
        #expect(
            try message("nonNullFieldWithDefault(arg: $v)", ["v": .null])
                == "Argument \"arg\" of non-null type \"Int!\" must not be null. @ 1:50")
        #expect(try message("nonNullFieldWithDefault(arg: $v)") == nil)
    }
}
