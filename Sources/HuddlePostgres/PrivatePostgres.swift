import CLibPQ
import Foundation

#if canImport(Glibc)
    import Glibc
    import HuddleRuntime
#endif

/// A PostgreSQL cluster of Huddle's own, for when no `DATABASE_URL` is
/// given: initialised on first use under a directory (`.huddle/postgres`),
/// started with the installed server binaries, listening on a Unix socket
/// only (no TCP port to collide with or expose), with a `huddle` database.
///
/// PostgreSQL refuses to run as root, so when started as root the cluster
/// belongs to, and runs as, the unprivileged `postgres` user that Debian's
/// package creates.
///
/// Setting up runs before any event loop does; its libpq calls block.
public final class PrivatePostgres: Sendable {
    public struct SetupError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The cluster's directory: `data/`, `server.log`, and the socket.
    public let directory: String
    /// A libpq connection string for the `huddle` database.
    public let url: String
    /// Whether this process started the server, rather than finding it running.
    public let startedHere: Bool
    /// A shared lock on `users.lock`, held while this process uses the
    /// cluster: the kernel lets go of it however the process ends, so the
    /// last user can tell it is the last (see `stopIfUnused`).
    private let usersLock: Int32
    let binaries: String
    /// Where its Unix socket is.
    public let socketDirectory: String
    let runAs: [String]

    /// Initialises the cluster if need be and starts it unless it runs already.
    public init(directory: String, database: String = "huddle") throws {
        let directory = URL(fileURLWithPath: directory).standardizedFileURL.path
        self.directory = directory
        binaries = try Self.serverBinaries()
        let owner = try Self.unprivilegedOwner()
        runAs = owner.map { [Self.runuser, "-u", $0.name, "--"] } ?? []

        if let owner { try Self.checkReachable(directory, by: owner) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // A Unix socket path has room for about 100 bytes; a deep directory
        // gets its socket under /tmp instead.
        let socketFile = "/.s.PGSQL.5432"
        if directory.utf8.count + socketFile.utf8.count < 100 {
            socketDirectory = directory
        } else {
            socketDirectory = "/tmp/huddle-postgres-\(Digest.sha256Hex(Array(directory.utf8)).prefix(12))"
            try FileManager.default.createDirectory(atPath: socketDirectory, withIntermediateDirectories: true)
        }
        if let owner {
            for path in [directory, socketDirectory] where chown(path, owner.uid, owner.gid) != 0 {
                throw SetupError(description: "cannot give \(path) to the \(owner.name) user: \(String(cString: strerror(errno)))")
            }
        }

        // Two processes starting at once: one sets up, the other waits and reuses.
        let lock = open(directory + "/setup.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw SetupError(description: "cannot open \(directory)/setup.lock") }
        defer { close(lock) }
        flock(lock, LOCK_EX)

        let data = directory + "/data"
        if !FileManager.default.fileExists(atPath: data + "/PG_VERSION") {
            try Self.run(
                runAs + [binaries + "/initdb", "-D", data, "-U", "huddle", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"], "initdb")
        }
        if (try? Self.run(runAs + [binaries + "/pg_ctl", "-D", data, "status"], "pg_ctl status")) != nil {
            startedHere = false
        } else {
            try Self.startServer(in: directory, socketDirectory: socketDirectory, binaries: binaries, runAs: runAs)
            startedHere = true
        }
        url = "host='\(socketDirectory)' user=huddle dbname='\(database)'"
        // Taken under the setup lock, so that a last user stopping the
        // cluster (under it too) never stops one being adopted.
        usersLock = open(directory + "/users.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard usersLock >= 0, flock(usersLock, LOCK_SH) == 0 else {
            throw SetupError(description: "cannot lock \(directory)/users.lock: \(String(cString: strerror(errno)))")
        }
        try Self.createDatabase(database, socketDirectory: socketDirectory)
    }

    deinit { close(usersLock) }

    /// Stops the server when no other process uses it any more, whoever
    /// started it: a cluster whose starter was killed (SIGKILL leaves no
    /// chance to stop it) is stopped by the last process that adopted it.
    /// Returns whether it stopped the server.
    @discardableResult
    public func stopIfUnused() throws -> Bool {
        let setup = open(directory + "/setup.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard setup >= 0 else { throw SetupError(description: "cannot open \(directory)/setup.lock") }
        defer { close(setup) }
        flock(setup, LOCK_EX)
        // Every other user holds a shared lock: the exclusive one is had only by the last.
        guard flock(usersLock, LOCK_EX | LOCK_NB) == 0 else { return false }
        defer { flock(usersLock, LOCK_SH) }
        try stop()
        return true
    }

    /// Stops the server (fast shutdown: open sessions are ended);
    /// `immediately`, as a crash would (no checkpoint, nothing more sent to standbys).
    public func stop(immediately: Bool = false) throws {
        try Self.run(
            runAs + [binaries + "/pg_ctl", "-D", directory + "/data", "-m", immediately ? "immediate" : "fast", "-w", "stop"], "pg_ctl stop"
        )
    }

    /// Starts the server again after `stop`.
    public func start() throws {
        try Self.startServer(in: directory, socketDirectory: socketDirectory, binaries: binaries, runAs: runAs)
    }

    /// Starts the server of the cluster in `directory` (its `data/`,
    /// logging to its `server.log`), listening on a socket only.
    static func startServer(in directory: String, socketDirectory: String, binaries: String, runAs: [String]) throws {
        try run(
            runAs + [
                binaries + "/pg_ctl", "-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "60",
                "-o", "-c listen_addresses='' -c unix_socket_directories='\(socketDirectory)' -c max_connections=200",
                "start",
            ], "pg_ctl start (see \(directory)/server.log)")
    }

    // MARK: Setting up

    /// Where initdb and pg_ctl are: on the search path, or in the newest of
    /// Debian's versioned directories.
    public static func serverBinaries(
        searchPath: String = ProcessInfo.processInfo.environment["PATH"] ?? "",
        versionsRoot: String = "/usr/lib/postgresql"
    ) throws -> String {
        for directory in searchPath.split(separator: ":")
        where FileManager.default.isExecutableFile(atPath: "\(directory)/initdb")
            && FileManager.default.isExecutableFile(atPath: "\(directory)/pg_ctl")
        {
            return String(directory)
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: versionsRoot)) ?? []
        let newestFirst = versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }
        for version in newestFirst where FileManager.default.isExecutableFile(atPath: "\(versionsRoot)/\(version)/bin/initdb") {
            return "\(versionsRoot)/\(version)/bin"
        }
        throw SetupError(
            description: """
                PostgreSQL's server programs (initdb, pg_ctl) are not installed. \
                Install them (Debian: apt-get install postgresql postgresql-contrib), \
                or set DATABASE_URL to a PostgreSQL server to use.
                """)
    }

    /// Throws, saying what to change, when `owner` (the user PostgreSQL runs
    /// as) cannot pass through a folder above `directory`: root's own
    /// folders (a home of mode 0700, say) let no one else in, and initdb
    /// would fail on permissions deep inside.
    private static func checkReachable(_ directory: String, by owner: (name: String, uid: uid_t, gid: gid_t)) throws {
        var ancestor = URL(fileURLWithPath: directory).deletingLastPathComponent()
        var ancestors: [String] = []
        while true {
            ancestors.append(ancestor.path)
            if ancestor.path == "/" { break }
            ancestor.deleteLastPathComponent()
        }
        for path in ancestors.reversed() {
            var status = stat()
            // Folders still to be made are made below one that passed.
            guard stat(path, &status) == 0 else { break }
            let bit: mode_t = status.st_uid == owner.uid ? S_IXUSR : status.st_gid == owner.gid ? S_IXGRP : S_IXOTH
            if status.st_mode & bit == 0 {
                throw SetupError(
                    description: """
                        the private PostgreSQL runs as the \(owner.name) user, who cannot enter \(path) \
                        (mode \(String(status.st_mode & 0o777, radix: 8)), owner uid \(status.st_uid)), so it cannot keep its data in \
                        \(directory). Set DATABASE_URL to a PostgreSQL of your own, run huddle from a folder \(owner.name) can \
                        reach, or let it through with: chmod o+x \(path)
                        """)
            }
        }
    }

    /// util-linux's runuser, by full path: the environment may have no PATH.
    static let runuser =
        ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"]
        .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "runuser"

    /// When running as root, the user the server runs as.
    static func unprivilegedOwner() throws -> (name: String, uid: uid_t, gid: gid_t)? {
        guard getuid() == 0 else { return nil }
        guard let entry = getpwnam("postgres") else {
            throw SetupError(
                description: """
                    PostgreSQL does not run as root, and there is no 'postgres' user to run it as. \
                    Run huddle as an ordinary user, or create the user (Debian's postgresql package does).
                    """)
        }
        return ("postgres", entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    @discardableResult
    static func run(_ arguments: [String], _ what: String) throws -> String {
        let result = try ChildProcess.run(arguments)
        guard result.status == 0 else {
            throw SetupError(description: "\(what) failed (exit \(result.status)): \(result.output.trimmingTrailingNewlines())")
        }
        return result.output
    }

    private static func createDatabase(_ name: String, socketDirectory: String) throws {
        guard let connection = PQconnectdb("host='\(socketDirectory)' user=huddle dbname=postgres") else {
            throw SetupError(description: "out of memory")
        }
        defer { PQfinish(connection) }
        guard PQstatus(connection) == CONNECTION_OK else {
            throw SetupError(description: "cannot connect to the private PostgreSQL: \(String(cString: PQerrorMessage(connection)))")
        }
        let exists = name.withCString { value in
            let values: [UnsafePointer<CChar>?] = [value]
            return PQexecParams(connection, "SELECT 1 FROM pg_database WHERE datname = $1", 1, nil, values, nil, nil, 0)
        }
        defer { PQclear(exists) }
        guard PQntuples(exists) == 0 else { return }
        let escaped = PQescapeIdentifier(connection, name, name.utf8.count)!
        defer { PQfreemem(escaped) }
        let created = PQexec(connection, "CREATE DATABASE \(String(cString: escaped))")
        defer { PQclear(created) }
        // Another process may have created it meanwhile (42P04: duplicate database).
        if PQresultStatus(created) != PGRES_COMMAND_OK,
            String(cString: PQresultErrorField(created, Int32(UInt8(ascii: "C")))) != "42P04"
        {
            throw SetupError(description: "cannot create the \(name) database: \(String(cString: PQresultErrorMessage(created)))")
        }
    }
}
