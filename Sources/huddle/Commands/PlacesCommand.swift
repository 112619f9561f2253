import ArgumentParser
import Foundation
import HuddleCore
import HuddlePostgres
import HuddleRuntime

struct PlacesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places",
        abstract: "The gazetteer that searchPlaces answers from.",
        subcommands: [Import.self]
    )

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Load GeoNames-format files into the gazetteer.",
            discussion: """
                Each FILE (UTF-8, read a megabyte at a time) is GeoNames' gazetteer format (cities15000.txt, \
                allCountries.txt: 19 tab-separated columns, of which only \
                populated places are kept) or its postal codes' (12 columns), \
                told apart line by line. A place already there (by geonameid, or \
                by country, postal code and name) is replaced, so a file can be \
                imported again. Lines that are neither format, or whose values \
                are out of range, are skipped and the first few reported. Uses \
                DATABASE_URL, or the private cluster under .huddle/postgres when \
                it is not set. Exits 1 when a file cannot be read or nothing in \
                it was a place.
                """
        )

        @Argument(help: "GeoNames-format files.")
        var files: [String]

        func run() async throws {
            let location = try DatabaseLocation.resolveForCommand()
            defer { location.stopPrivateCluster() }
            let configuration = location.configuration
            var failed = false
            for file in files {
                do {
                    let report = try await EventLoop.withOwnThread { loop in
                        let pool = PostgresPool(configuration, on: loop)
                        do {
                            let report = try await Gazetteer.import(contentsOf: file, into: pool)
                            await pool.close()
                            return report
                        } catch {
                            await pool.close()
                            throw error
                        }
                    }
                    print("\(file): \(report.imported) places imported, \(report.skipped) lines skipped")
                    for problem in report.problems { FileHandle.standardError.write(Data("huddle: \(file): \(problem)\n".utf8)) }
                    if report.imported == 0 { failed = true }
                } catch {
                    FileHandle.standardError.write(Data("huddle: \(file): \(error)\n".utf8))
                    failed = true
                }
            }
            if failed { throw ExitCode.failure }
        }
    }
}
