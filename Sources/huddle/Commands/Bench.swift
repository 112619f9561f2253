import ArgumentParser
import Foundation
import GraphQL

/// Benchmarks of the engine, run in release builds. Each prints one line per
/// input: `name<TAB>bytes<TAB>ns per operation<TAB>MB/s`, the same format
/// scripts/bench/*.js prints for graphql-js, so scripts/bench can set them
/// side by side.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the engine's benchmarks (build with -c release).",
        subcommands: [Parse.self, GenerateSchema.self]
    )

    struct Parse: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Parse each FILE repeatedly and report the median time per parse."
        )

        @Option(help: "Timed rounds per file; the median is reported.")
        var rounds = 15

        @Option(help: "Minimum seconds per round.")
        var roundSeconds = 0.2

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
                let nanoseconds = try Measurement.median(rounds: rounds, roundSeconds: roundSeconds) { () throws(GraphQLError) in
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
