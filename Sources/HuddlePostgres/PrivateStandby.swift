import Foundation
import HuddleRuntime

#if canImport(Glibc)
    import Glibc
#endif

/// A hot standby of a private cluster, streaming its WAL: made with
/// `pg_basebackup -R` (which writes the standby's `primary_conninfo` and
/// `standby.signal`), listening on a socket of its own. What the tests of
/// reads on replicas and of a failover run against; the quick start has
/// no standby.
public final class PrivateStandby: Sendable {
    /// The standby's directory: `data/`, `server.log`, and its socket.
    public let directory: String
    /// A libpq connection string for the standby's `huddle` database.
    public let url: String
    private let binaries: String
    /// Where its Unix socket is.
    public let socketDirectory: String
    private let runAs: [String]

    /// Copies `primary` (running) into `directory` and starts the copy as its standby.
    public init(of primary: PrivatePostgres, directory: String) throws {
        let directory = URL(fileURLWithPath: directory).standardizedFileURL.path
        self.directory = directory
        // pg_ctl may be a link on the search path to a directory holding the rest.
        binaries = URL(fileURLWithPath: primary.binaries + "/pg_ctl").resolvingSymlinksInPath().deletingLastPathComponent().path
        runAs = primary.runAs
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // The socket's path must stay within about 100 bytes.
        socketDirectory =
            directory.utf8.count < 80
            ? directory : "/tmp/huddle-standby-\(Digest.sha256Hex(Array(directory.utf8)).prefix(12))"
        try FileManager.default.createDirectory(atPath: socketDirectory, withIntermediateDirectories: true)
        if let owner = try PrivatePostgres.unprivilegedOwner() {
            for path in [directory, socketDirectory] where chown(path, owner.uid, owner.gid) != 0 {
                throw PrivatePostgres.SetupError(
                    description: "cannot give \(path) to the \(owner.name) user: \(String(cString: strerror(errno)))")
            }
        }
        try PrivatePostgres.run(
            runAs + [
                binaries + "/pg_basebackup", "-h", primary.socketDirectory, "-U", "huddle", "-D", directory + "/data", "-R",
                "-X", "stream", "--checkpoint=fast",
            ], "pg_basebackup")
        url = "host='\(socketDirectory)' user=huddle dbname='huddle'"
        try start()
    }

    /// Starts the standby (again, after `stop`).
    public func start() throws {
        try PrivatePostgres.startServer(in: directory, socketDirectory: socketDirectory, binaries: binaries, runAs: runAs)
    }

    /// Stops it (fast shutdown).
    public func stop() throws {
        try PrivatePostgres.run(runAs + [binaries + "/pg_ctl", "-D", directory + "/data", "-m", "fast", "-w", "stop"], "pg_ctl stop")
    }

    /// Makes it a primary of its own (a failover), once it has replayed what it received.
    public func promote() throws {
        try PrivatePostgres.run(runAs + [binaries + "/pg_ctl", "-D", directory + "/data", "-w", "-t", "60", "promote"], "pg_ctl promote")
    }
}
