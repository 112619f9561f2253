import ArgumentParser
import Foundation
import HuddleCore
import HuddlePostgres
import HuddleRuntime

struct OutboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "List the mail not sent (pending, or dead after its last attempt), or send dead mail again.",
        discussion: """
            Without --retry, prints one line per message not sent, oldest first: \
            its id, state, attempts, template, recipient, when it was made and \
            the last error. --retry ID (repeatable) or --retry-all-dead makes \
            dead messages pending with their attempts reset, due at once; the \
            running servers send them. Uses DATABASE_URL, or the private \
            cluster under .huddle/postgres when it is not set.
            """
    )

    @Option(name: .customLong("retry"), help: "A dead message to send again, by id (repeatable).")
    var retry: [Int64] = []

    @Flag(name: .customLong("retry-all-dead"), help: "Send every dead message again.")
    var retryAllDead = false

    @Option(parsing: .unconditional, help: "The most messages listed, 1 to 100000.")
    var limit = 1000

    func validate() throws {
        guard (1...100_000).contains(limit) else { throw ValidationError("--limit must be between 1 and 100000") }
        if retryAllDead && !retry.isEmpty { throw ValidationError("--retry and --retry-all-dead go alone") }
    }

    func run() async throws {
        let location = try DatabaseLocation.resolveForCommand()
        defer { location.stopPrivateCluster() }
        let configuration = location.configuration
        let (retry, retryAllDead, limit) = (retry, retryAllDead, limit)
        do {
            let lines = try await EventLoop.withOwnThread { loop in
                let pool = PostgresPool(configuration, on: loop)
                do {
                    let lines: [String]
                    if retryAllDead || !retry.isEmpty {
                        let count = try await pool.withTransaction { connection in
                            try await Outbox.retry(retryAllDead ? nil : retry, on: connection)
                        }
                        lines = ["\(count) dead message\(count == 1 ? "" : "s") made pending again"]
                    } else {
                        let formatter = ISO8601DateFormatter()
                        lines = try await Outbox.waiting(limit: limit, on: pool).map { entry in
                            let error = entry.lastError.map { " " + $0.replacingOccurrences(of: "\n", with: " ") } ?? ""
                            return "\(entry.id)\t\(entry.state)\t\(entry.attempts)\t\(entry.template)\t\(entry.recipient)\t"
                                + "\(formatter.string(from: entry.createdAt))\t\(error)"
                        }
                    }
                    await pool.close()
                    return lines
                } catch {
                    await pool.close()
                    throw error
                }
            }
            for line in lines { print(line) }
        } catch {
            FileHandle.standardError.write(Data("huddle: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
