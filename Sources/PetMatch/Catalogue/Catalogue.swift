import GraphQL
import HuddleCore
import HuddlePostgres
import Synchronization

/// The catalogue (pet types, their coats, colours and breeds), read once
/// per process: migrations write it and no API changes it, so a page of
/// pets names its breeds without a statement.
final class Catalogue: Sendable {
    let types: [PetTypeRecord]
    let breeds: [Int64: BreedRecord]

    private init(types: [PetTypeRecord]) {
        self.types = types
        breeds = Dictionary(types.flatMap(\.breeds).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Each database's, by its connection string (a process may serve
    /// several databases, as the tests do).
    private static let loaded = Mutex<[String: Catalogue]>([:])

    /// The database's catalogue, read on first use.
    static func shared(_ database: PostgresPool) async throws -> Catalogue {
        let key = database.configuration.url
        if let catalogue = loaded.withLock({ $0[key] }) { return catalogue }
        async let typeRows = database.query(
            """
            SELECT t.type, t.name, ARRAY(SELECT c.coat FROM pet_type_coats c WHERE c.type = t.type
                                        ORDER BY array_position(ARRAY['HAIRLESS', 'SHORT', 'MEDIUM', 'LONG', 'WIRE', 'CURLY'], c.coat)),
                   ARRAY(SELECT c.color FROM pet_type_colors c WHERE c.type = t.type ORDER BY c.position)
            FROM pet_types t ORDER BY t.position
            """)
        async let breedRows = database.query("SELECT \(BreedRecord.columns) FROM breeds b ORDER BY b.type, b.name")
        var breedsByType: [String: [BreedRecord]] = [:]
        for row in try await breedRows {
            let breed = try BreedRecord(row: row)
            breedsByType[breed.type, default: []].append(breed)
        }
        let types = try await typeRows.map { row in
            let type: String = try row.decode(at: 0)
            return PetTypeRecord(
                type: type, name: try row.decode(at: 1), coats: try row.decode(at: 2), colors: try row.decode(at: 3),
                breeds: breedsByType[type] ?? [])
        }
        let catalogue = Catalogue(types: types)
        loaded.withLock { $0[key] = catalogue }
        return catalogue
    }

    /// `body` with the catalogue: at once once it is read, else after reading it.
    static func with(_ database: PostgresPool, _ body: @escaping @Sendable (Catalogue) throws -> Resolved) throws -> Resolved {
        if let catalogue = loaded.withLock({ $0[database.configuration.url] }) { return try body(catalogue) }
        return .async { try body(try await shared(database)) }
    }

    func type(_ name: String) -> PetTypeRecord? { types.first { $0.type == name } }

    /// The breed ids `ids` name (global ids), each checked to be of `type`.
    func breeds(_ ids: [GraphQLValue], ofType type: String?, argument: String) throws -> [Int64] {
        let parsed = try ids.map { try GlobalID.id(of: "Breed", $0.stringValue ?? "", argument: argument) }
        for (id, text) in zip(parsed, ids) {
            guard let breed = breeds[id] else { throw APIError.badInput("No breed has the id \(text.stringValue ?? "").") }
            guard let type else { throw APIError.badInput("Choose a type before its breeds.") }
            guard breed.type == type else { throw APIError.badInput("\(breed.name) is not a breed of \(type).") }
        }
        return Array(Set(parsed)).sorted()
    }
}

/// `petTypes`, `breeds(type:)` and the catalogue's types.
enum CatalogueResolvers {
    static func bind(_ binder: inout SchemaBinder) {
        binder.root("Query", "petTypes") { input in
            try Catalogue.with(input.request.primaryDatabase) { catalogue in .list(catalogue.types.map { .object($0) }) }
        }
        binder.root("Query", "breeds") { input in
            let type = input.argument("type")?.enumValue ?? ""
            return try Catalogue.with(input.request.primaryDatabase) { catalogue in
                .list((catalogue.type(type)?.breeds ?? []).map { .object($0) })
            }
        }
        binder.field("PetTypeDetails", "type") { (type: PetTypeRecord) in .scalar(.enum(type.type)) }
        binder.field("PetTypeDetails", "name") { (type: PetTypeRecord) in .scalar(.string(type.name)) }
        binder.field("PetTypeDetails", "coats") { (type: PetTypeRecord) in .list(type.coats.map { .scalar(.enum($0)) }) }
        binder.field("PetTypeDetails", "colors") { (type: PetTypeRecord) in .list(type.colors.map { .scalar(.string($0)) }) }
        binder.field("PetTypeDetails", "breeds") { (type: PetTypeRecord) in .list(type.breeds.map { .object($0) }) }
        binder.field("Breed", "id") { (breed: BreedRecord) in GlobalID.value("Breed", breed.id) }
        binder.field("Breed", "name") { (breed: BreedRecord) in .scalar(.string(breed.name)) }
        binder.field("Breed", "type") { (breed: BreedRecord) in .scalar(.enum(breed.type)) }
    }
}
