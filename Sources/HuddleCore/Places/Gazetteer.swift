import Foundation
import HuddlePostgres
import HuddleRuntime

/// A place of the gazetteer, as a GeoNames file gives it.
package struct GazetteerEntry: Sendable, Equatable {
    /// GeoNames' id of a populated place; nil for a postal code.
    package var geonameID: Int64?
    package var name: String
    /// The name as searched: GeoNames' ASCII name, in lower case.
    package var searchName: String
    package var countryCode: String
    package var region: String?
    package var postalCode: String?
    package var latitude: Double
    package var longitude: Double
    package var population: Int64?
    package var timeZone: String?
}

/// GeoNames' two tab-separated formats, told apart by their columns: the
/// gazetteer's (`cities15000.txt`, `allCountries.txt`: 19 columns, of which
/// only populated places, feature class P, are kept) and the postal codes'
/// (`allCountries.txt` of the postal code dump: 12 columns). Lines that are
/// neither, or whose values are out of range, are counted and skipped, not
/// guessed at.
package enum Gazetteer {
    package enum Line: Equatable {
        case entry(GazetteerEntry)
        /// A place of another feature class (a river, a mountain).
        case notAPlace
        case malformed(String)
    }

    package static func parse(line: Substring) -> Line {
        guard !line.isEmpty, !line.hasPrefix("#") else { return .notAPlace }
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        switch fields.count {
        case 19: return populatedPlace(fields)
        case 12: return postalCode(fields)
        default: return .malformed("\(fields.count) columns, not GeoNames' 19 (places) or 12 (postal codes)")
        }
    }

    // geonameid, name, asciiname, alternatenames, latitude, longitude,
    // feature class, feature code, country code, cc2, admin1 code, admin2
    // code, admin3 code, admin4 code, population, elevation, dem, timezone,
    // modification date
    private static func populatedPlace(_ fields: [String]) -> Line {
        guard fields[6] == "P" else { return .notAPlace }
        guard let id = Int64(fields[0]), id > 0 else { return .malformed("geonameid \"\(fields[0])\" is not a positive number") }
        let ascii = fields[2].isEmpty ? fields[1] : fields[2]
        return checked(
            GazetteerEntry(
                geonameID: id, name: fields[1], searchName: ascii.lowercased(), countryCode: fields[8],
                region: fields[10].isEmpty ? nil : fields[10], postalCode: nil, latitude: Double(fields[4]) ?? .nan,
                longitude: Double(fields[5]) ?? .nan, population: Int64(fields[14]).flatMap { $0 > 0 ? $0 : nil },
                timeZone: fields[17].isEmpty ? nil : fields[17]))
    }

    // country code, postal code, place name, admin name1, admin code1,
    // admin name2, admin code2, admin name3, admin code3, latitude,
    // longitude, accuracy
    private static func postalCode(_ fields: [String]) -> Line {
        guard !fields[1].isEmpty else { return .malformed("no postal code") }
        return checked(
            GazetteerEntry(
                geonameID: nil, name: fields[2], searchName: fields[2].lowercased(), countryCode: fields[0],
                region: fields[3].isEmpty ? (fields[4].isEmpty ? nil : fields[4]) : fields[3], postalCode: fields[1],
                latitude: Double(fields[9]) ?? .nan, longitude: Double(fields[10]) ?? .nan, population: nil, timeZone: nil))
    }

    /// The table's rules, checked here so that one bad line is reported
    /// as that line instead of failing its whole batch.
    private static func checked(_ entry: GazetteerEntry) -> Line {
        // Counted as the table's checks count them (char_length: code points).
        guard (1...200).contains(entry.name.unicodeScalars.count), (1...200).contains(entry.searchName.unicodeScalars.count) else {
            return .malformed("a name of \(entry.name.unicodeScalars.count) characters")
        }
        guard entry.countryCode.utf8.count == 2, entry.countryCode.utf8.allSatisfy({ (65...90).contains($0) }) else {
            return .malformed("country code \"\(entry.countryCode)\"")
        }
        guard (-90...90).contains(entry.latitude), (-180...180).contains(entry.longitude) else {
            return .malformed("coordinates out of range")
        }
        guard (entry.region?.unicodeScalars.count ?? 1) <= 100, (entry.postalCode?.unicodeScalars.count ?? 1) <= 20,
            (entry.timeZone?.unicodeScalars.count ?? 1) <= 64
        else {
            return .malformed("a region, postal code or time zone too long")
        }
        return .entry(entry)
    }

    /// What an import did.
    package struct Report: Sendable, Equatable {
        package var imported = 0
        package var skipped = 0
        /// The first few malformed lines, by number, for the operator.
        package var problems: [String] = []
    }

    /// Reads the file at `path` a megabyte at a time (GeoNames' whole
    /// gazetteer is 1.6 GB) and stores its places, replacing those with the
    /// same GeoNames id, or postal code and name, in batches of `batchSize`
    /// rows per statement. Lines end in LF or CRLF; a line that is not
    /// UTF-8 is skipped like any other malformed one.
    package static func `import`(contentsOf path: String, into database: PostgresPool, batchSize: Int = 2000) async throws -> Report {
        guard let file = FileHandle(forReadingAtPath: path) else { throw ImportError(description: "cannot open \(path)") }
        defer { try? file.close() }
        var importer = Importer(batchSize: batchSize)
        var pending: [UInt8] = []
        while let chunk = try file.read(upToCount: 1 << 20), !chunk.isEmpty {
            pending.append(contentsOf: chunk)
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                try await importer.add(pending[start..<newline], into: database)
                start = newline + 1
            }
            pending.removeSubrange(..<start)
        }
        if !pending.isEmpty { try await importer.add(pending[...], into: database) }
        try await importer.finish(into: database)
        return importer.report
    }

    package struct ImportError: Error, CustomStringConvertible {
        package var description: String
    }

    /// Lines in, batches out.
    struct Importer {
        let batchSize: Int
        var report = Report()
        var batch: [GazetteerEntry] = []
        var number = 0

        init(batchSize: Int) {
            self.batchSize = batchSize
        }

        mutating func add(_ bytes: ArraySlice<UInt8>, into database: PostgresPool) async throws {
            number += 1
            let line = bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes
            guard let text = String(validating: line, as: UTF8.self) else {
                skip("not UTF-8")
                return
            }
            switch parse(line: text[...]) {
            case .entry(let entry):
                batch.append(entry)
                if batch.count == batchSize { try await finish(into: database) }
            case .notAPlace:
                break
            case .malformed(let why):
                skip(why)
            }
        }

        mutating func finish(into database: PostgresPool) async throws {
            guard !batch.isEmpty else { return }
            try await store(batch, into: database)
            report.imported += batch.count
            batch.removeAll(keepingCapacity: true)
        }

        private mutating func skip(_ why: String) {
            report.skipped += 1
            if report.problems.count < 10 { report.problems.append("line \(number): \(why)") }
        }
    }

    /// One batch in one statement per kind: populated places by GeoNames
    /// id, postal codes by country, code and name (the last of a batch's
    /// duplicates wins).
    static func store(_ entries: [GazetteerEntry], into database: some PostgresQuerying) async throws {
        let places = Dictionary(
            entries.filter { $0.geonameID != nil }.map { ($0.geonameID!, $0) }, uniquingKeysWith: { _, last in last }
        ).values.sorted { $0.geonameID! < $1.geonameID! }
        let postal = Dictionary(
            entries.filter { $0.postalCode != nil }.map { ("\($0.countryCode) \($0.postalCode!) \($0.searchName)", $0) },
            uniquingKeysWith: { _, last in last }
        ).values.sorted { ($0.countryCode, $0.postalCode!, $0.searchName) < ($1.countryCode, $1.postalCode!, $1.searchName) }
        for (rows, conflict) in [
            (places, "(geoname_id)"), (postal, "(country_code, postal_code, search_name) WHERE postal_code IS NOT NULL"),
        ] where !rows.isEmpty {
            _ = try await database.query(
                """
                INSERT INTO places (geoname_id, name, search_name, country_code, region, postal_code, latitude, longitude, population, time_zone)
                SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::float8[], $8::float8[],
                                     $9::bigint[], $10::text[])
                ON CONFLICT \(conflict) DO UPDATE SET
                    name = EXCLUDED.name, search_name = EXCLUDED.search_name, country_code = EXCLUDED.country_code,
                    region = EXCLUDED.region, postal_code = EXCLUDED.postal_code, latitude = EXCLUDED.latitude,
                    longitude = EXCLUDED.longitude, population = EXCLUDED.population, time_zone = EXCLUDED.time_zone
                """,
                [
                    rows.map(\.geonameID), rows.map(\.name), rows.map(\.searchName), rows.map(\.countryCode), rows.map(\.region),
                    rows.map(\.postalCode), rows.map(\.latitude), rows.map(\.longitude), rows.map(\.population), rows.map(\.timeZone),
                ])
        }
    }
}
