import ArgumentParser
import Foundation
import HuddleCore

extension DatabaseLocation {
    /// The database a command uses (DATABASE_URL or the private cluster);
    /// on failure, says why on standard error and exits 1.
    static func resolveForCommand() throws -> DatabaseLocation {
        do {
            return try resolve()
        } catch {
            FileHandle.standardError.write(Data("huddle: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
