import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import TestSupport
import Testing

@testable import HuddlePostgres

/// What a child of `ChildProcess` inherits: nothing but its standard
/// input, output and error, so that a daemon it leaves behind (the server
/// `pg_ctl start` leaves) holds none of the process's locks or sockets.
@Suite struct ChildProcessTests {
    @Test func aChildInheritsNoDescriptorHoweverHighItsNumber() throws {
        // A process serving in-process servers has well over a thousand
        // descriptors open; a lock among them once outlived its holder in
        // the PostgreSQL server and froze the next setup.
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let file = open("/dev/null", O_RDONLY)
        #expect(file >= 0)
        defer { close(file) }
        // Copies at the first free number from each of these up (never
        // over another test's descriptor); past 1024 only where the limit allows.
        let numbers = ([700, 1500, 4000] as [Int32]).filter { rlim_t($0) < limit.rlim_cur }.map { fcntl(file, F_DUPFD, $0) }
        #expect(!numbers.contains(-1))
        defer { for number in numbers { close(number) } }
        let listed = try ChildProcess.run(["ls", "/proc/self/fd"])
        #expect(listed.status == 0)
        let inherited = Set(listed.output.split(separator: "\n").compactMap { Int32($0) })
        // 0, 1 and 2, and the descriptor ls reads the folder through.
        #expect(inherited.isDisjoint(with: numbers), "\(inherited.sorted())")
        #expect(inherited.count <= 4, "\(inherited.sorted())")
    }
}
