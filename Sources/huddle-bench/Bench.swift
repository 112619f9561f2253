import ArgumentParser
import Foundation
import GraphQL
import HuddleRuntime

/// Benchmarks of the engine, run in release builds. Each prints one line per
/// input: `name<TAB>bytes<TAB>ns per operation<TAB>MB/s`, the same format
/// scripts/bench/*.js prints for graphql-js, so scripts/bench can set them
/// side by side.
@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "huddle-bench",
        abstract: "Huddle's benchmarks: the engine, the loop, the PostgreSQL client (build with -c release).",
        subcommands: [
            Parse.self, Validate.self, Execute.self, Resolvers.self, Loop.self, Postgres.self, BuildSchema.self, GenerateSchema.self,
            GenerateDocument.self, GenerateData.self, RequestStages.self, Spans.self,
        ]
    )

    struct Parse: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Parse each FILE repeatedly and report the median time per parse."
        )

        @OptionGroup var timing: TimingOptions

        @Option(help: "Parse each file exactly this many times and report nothing (for profilers such as callgrind).")
        var iterations: Int?

        @ArgumentParser.Argument(help: "GraphQL documents to parse.")
        var files: [String]

        func run() throws {
            for file in files {
                let text = try String(contentsOfFile: file, encoding: .utf8)
                let source = Source(body: text, name: file)
                if let iterations {
                    for _ in 0..<iterations { _ = try GraphQL.parse(source, options: .trusted) }
                    continue
                }
                let nanoseconds = try Measurement.median(rounds: timing.rounds, roundSeconds: timing.roundSeconds) {
                    () throws(GraphQLError) in
                    _ = try GraphQL.parse(source, options: .trusted)
                }
                Measurement.report(name: URL(fileURLWithPath: file).lastPathComponent, bytes: text.utf8.count, nanoseconds: nanoseconds)
            }
        }
    }

    struct GenerateSchema: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate-schema",
            abstract: "Print a deterministic SDL document of about BYTES bytes."
        )

        @Option(help: "The approximate size in bytes.")
        var bytes = 1_000_000

        func run() {
            var generator = GeneratedSchema()
            print(generator.text(bytes: bytes), terminator: "")
        }
    }
}

/// How benchmarks time: the same method as scripts/bench/median.js.
struct TimingOptions: ParsableArguments {
    @Option(help: "Timed rounds; the median is reported.")
    var rounds = 15

    @Option(help: "Minimum seconds per round.")
    var roundSeconds = 0.2
}

enum Measurement {
    /// Runs `body` in rounds of at least `roundSeconds`, after one warm-up
    /// round, and returns the median nanoseconds per call.
    static func median<E: Error>(rounds: Int, roundSeconds: Double, _ body: () throws(E) -> Void) throws(E) -> Double {
        var iterations = 1
        // Calibrate: grow the iteration count until one round takes long enough.
        while true {
            let elapsed = try time(iterations, body)
            if elapsed >= roundSeconds * 1e9 { break }
            iterations = elapsed < 1e6 ? iterations * 10 : Int(Double(iterations) * roundSeconds * 1e9 / elapsed) + 1
        }
        var samples: [Double] = []
        for _ in 0..<rounds {
            samples.append(try time(iterations, body) / Double(iterations))
        }
        samples.sort()
        return samples[samples.count / 2]
    }

    private static func time<E: Error>(_ iterations: Int, _ body: () throws(E) -> Void) throws(E) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations {
            try body()
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start)
    }

    static func report(name: String, bytes: Int, nanoseconds: Double) {
        let megabytesPerSecond = Double(bytes) / nanoseconds * 1e9 / 1e6
        print("\(name)\t\(bytes)\t\(String(format: "%.0f", nanoseconds))\t\(String(format: "%.1f", megabytesPerSecond))")
    }
}

extension Bench {
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate each FILE repeatedly against the schema and report the median time."
        )

        @Option(help: "The SDL file to validate against.")
        var schema: String

        @OptionGroup var timing: TimingOptions

        @Option(help: "Validate each file exactly this many times and report nothing (for profilers).")
        var iterations: Int?

        @ArgumentParser.Argument(help: "GraphQL documents to validate.")
        var files: [String]

        func run() throws {
            let built = try buildSchema([Source(body: try String(contentsOfFile: schema, encoding: .utf8), name: schema)])
            for file in files {
                let source = Source(body: try String(contentsOfFile: file, encoding: .utf8), name: file)
                let document = try GraphQL.parse(source, options: .trusted)
                if let iterations {
                    for _ in 0..<iterations { _ = GraphQL.validate(schema: built, document: document, source: source) }
                    continue
                }
                let errors = GraphQL.validate(schema: built, document: document, source: source)
                let nanoseconds = Measurement.median(rounds: timing.rounds, roundSeconds: timing.roundSeconds) {
                    _ = GraphQL.validate(schema: built, document: document, source: source)
                }
                Measurement.report(
                    name: URL(fileURLWithPath: file).lastPathComponent + (errors.isEmpty ? "" : " (\(errors.count) errors)"),
                    bytes: source.body.utf8.count, nanoseconds: nanoseconds
                )
            }
        }
    }

    struct BuildSchema: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "build-schema",
            abstract: "Parse and build each SDL FILE repeatedly and report the median time."
        )

        @OptionGroup var timing: TimingOptions

        @ArgumentParser.Argument(help: "SDL files.")
        var files: [String]

        func run() throws {
            for file in files {
                let source = Source(body: try String(contentsOfFile: file, encoding: .utf8), name: file)
                let nanoseconds = try Measurement.median(rounds: timing.rounds, roundSeconds: timing.roundSeconds) {
                    () throws(SchemaBuildError) in
                    _ = try GraphQL.buildSchema([source])
                }
                Measurement.report(
                    name: URL(fileURLWithPath: file).lastPathComponent, bytes: source.body.utf8.count, nanoseconds: nanoseconds)
            }
        }
    }

    struct GenerateDocument: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate-document",
            abstract: "Print a hostile document for the validation benchmark (against the validation schema).",
            discussion: """
                repeated-fields: { dog { name name ... } } with 5,000 repeats (CVE-2023-26144). \
                nested-fragments: 200 inline fragments of 100 inline fragments with one response name \
                (GHSA-fc86-6rv6-2jpm). fragment-chain: 200 fragments, each spreading the next twice, \
                at two depths. fragment-cycle: 200 fragments spreading each other in a ring. \
                spread-repeats: 1,480 selection sets spreading one fragment of 47 aliases and 7,400 \
                repeats of one field (each set's quick merge answer must stay bounded).
                """
        )

        enum Shape: String, ExpressibleByArgument, CaseIterable {
            case repeatedFields = "repeated-fields"
            case nestedFragments = "nested-fragments"
            case fragmentChain = "fragment-chain"
            case fragmentCycle = "fragment-cycle"
            case spreadRepeats = "spread-repeats"
        }

        @ArgumentParser.Argument(help: "repeated-fields, nested-fragments, fragment-chain, fragment-cycle or spread-repeats.")
        var shape: Shape

        func run() {
            switch shape {
            case .repeatedFields:
                print("{ dog { " + String(repeating: "name ", count: 5_000) + "} }")
            case .nestedFragments:
                let inner = String(repeating: "... on Dog { name } ", count: 100)
                print("{ dog { " + String(repeating: "... on Dog { \(inner)} ", count: 200) + "} }")
            case .fragmentChain:
                var text = "{ dog { ...F0 } }\n"
                for index in 0..<200 {
                    let next = index < 199 ? "...F\(index + 1) " : ""
                    text += "fragment F\(index) on Dog { name mother { \(next)name } \(next)}\n"
                }
                print(text, terminator: "")
            case .fragmentCycle:
                var text = "{ dog { ...F0 } }\n"
                for index in 0..<200 {
                    text += "fragment F\(index) on Dog { name ...F\((index + 1) % 200) mother { ...F\((index + 7) % 200) } }\n"
                }
                print(text, terminator: "")
            case .spreadRepeats:
                let aliases = (1...47).map { "a\($0): name" }.joined(separator: " ")
                print("query { " + String(repeating: "dog { ...F } ", count: 1_480) + "}")
                print("fragment F on Dog { \(aliases) " + String(repeating: "name ", count: 7_400) + "}")
            }
        }
    }
}

extension Bench {
    struct Execute: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Execute DOCUMENT over the JSON DATA repeatedly (default resolvers) and report the median time, response JSON included."
        )

        @Option(help: "The SDL file.")
        var schema: String

        @Option(help: "The JSON root value.")
        var data: String?

        @OptionGroup var timing: TimingOptions

        @Option(help: "Execute exactly this many times and report nothing (for profilers).")
        var iterations: Int?

        @ArgumentParser.Argument(help: "The document to execute.")
        var document: String

        func run() async throws {
            let built = try buildSchema([Source(body: try String(contentsOfFile: schema, encoding: .utf8), name: schema)])
            let executable = ExecutableSchema.readingFieldsByName(built)
            let root = try data.map { try JSONReader().read(try String(contentsOfFile: $0, encoding: .utf8)) } ?? .object([])
            let source = Source(body: try String(contentsOfFile: document, encoding: .utf8), name: document)
            let parsed = try GraphQL.parse(source, options: .trusted)
            await Measurement.executions(
                name: URL(fileURLWithPath: document).lastPathComponent, timing: timing, iterations: iterations
            ) {
                await GraphQL.execute(schema: executable, document: parsed, source: source, rootValue: .value(root), limits: .unlimited)
            }
        }
    }

    struct GenerateData: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate-data",
            abstract: "Print the execution benchmark's inputs: a schema, data and a query for SHAPE."
        )

        enum Shape: String, ExpressibleByArgument {
            case list, nested
        }

        @ArgumentParser.Argument(help: "list (10,000 objects × 5 fields) or nested (100 lists of 100 objects).")
        var shape: Shape

        @Option(help: "Which part to print: schema, data or query.")
        var part: String

        func run() {
            switch (shape, part) {
            case (_, "schema"):
                print(
                    "type Query { items: [Item!]! groups: [Group!]! }\ntype Group { name: String! items: [Item!]! }\ntype Item { a: Int b: String c: Float d: Boolean e: ID }"
                )
            case (.list, "query"):
                print("{ items { a b c d e } }")
            case (.nested, "query"):
                print("{ groups { name items { a b c d e } } }")
            case (.list, "data"):
                print("{\"items\":[" + (0..<10_000).map(Self.item).joined(separator: ",") + "]}")
            case (.nested, "data"):
                let group = "[" + (0..<100).map(Self.item).joined(separator: ",") + "]"
                print("{\"groups\":[" + (0..<100).map { "{\"name\":\"group \($0)\",\"items\":\(group)}" }.joined(separator: ",") + "]}")
            default:
                print("")
            }
        }

        static func item(_ index: Int) -> String {
            "{\"a\":\(index),\"b\":\"item \(index) \\\"quoted\\\"\",\"c\":\(Double(index) / 8),\"d\":\(index % 2 == 0),\"e\":\"id-\(index)\"}"
        }
    }
}

extension Measurement {
    /// Runs `execute` `iterations` times and reports nothing (for profilers),
    /// or measures it, response JSON included, and reports the median.
    static func executions(
        name: String, timing: TimingOptions, iterations: Int?, _ execute: () async -> ExecutionResult
    ) async {
        // The response buffer starts at the last response's size, as the
        // HTTP layer's does.
        var lastSize = 1 << 16
        func once() async -> Int {
            var writer = JSONWriter(capacity: lastSize + 256)
            await execute().write(to: &writer)
            lastSize = writer.count
            return writer.count
        }
        if let iterations {
            for _ in 0..<iterations { _ = await once() }
            return
        }
        let bytes = await once()
        let nanoseconds = await medianAsync(rounds: timing.rounds, roundSeconds: timing.roundSeconds) { _ = await once() }
        report(name: name, bytes: bytes, nanoseconds: nanoseconds)
    }

    static func medianAsync(rounds: Int, roundSeconds: Double, _ body: () async -> Void) async -> Double {
        func time(_ iterations: Int) async -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<iterations { await body() }
            return Double(DispatchTime.now().uptimeNanoseconds - start)
        }
        var iterations = 1
        while true {
            let elapsed = await time(iterations)
            if elapsed >= roundSeconds * 1e9 { break }
            iterations = elapsed < 1e6 ? iterations * 10 : Int(Double(iterations) * roundSeconds * 1e9 / elapsed) + 1
        }
        var samples: [Double] = []
        for _ in 0..<rounds { samples.append(await time(iterations) / Double(iterations)) }
        samples.sort()
        return samples[samples.count / 2]
    }
}

extension Bench {
    struct Loop: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Suspend and resume a task on the libuv event loop COUNT times; report nanoseconds per switch.",
            discussion: "Runs 1/10 of the count too, so the cost per switch shows whether it grows with the count."
        )

        @Option(help: "Suspend/resume cycles.")
        var count = 1_000_000

        func run() async throws {
            let loop = EventLoop()
            let thread = Thread { loop.run() }
            thread.start()
            for cycles in [count / 10, count] {
                let start = DispatchTime.now().uptimeNanoseconds
                let resumed = await Task(executorPreference: loop) {
                    var resumed = 0
                    for _ in 0..<cycles {
                        await Task.yield()
                        resumed += 1
                    }
                    return resumed
                }.value
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
                print("loop-switch-\(cycles)\t\(resumed)\t\(String(format: "%.1f", elapsed / Double(cycles)))")
            }
            loop.stop()
        }
    }
}
