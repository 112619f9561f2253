import HuddlePostgres
import HuddleRuntime
import RuntimeTestSupport
import TestSupport
import Testing

/// The system library targets link and report the versions Huddle needs.
@Suite struct SystemLibrariesTests {
    @Test func libuvIsVersionOneOrLater() {
        let major = SystemLibraries.libuvVersion.split(separator: ".").first.flatMap { Int($0) }
        #expect((major ?? 0) >= 1)
    }

    @Test func libpqSupportsPipelineMode() {
        // Pipeline mode, which the database layer relies on, arrived in libpq 14.
        let major = SystemLibraries.libpqVersion.split(separator: ".").first.flatMap { Int($0) }
        #expect((major ?? 0) >= 14)
    }

    @Test func openSSLIsVersionThree() {
        #expect(SystemLibraries.openSSLVersion.hasPrefix("OpenSSL 3"))
    }
}
