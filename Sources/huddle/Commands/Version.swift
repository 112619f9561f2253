import ArgumentParser
import HuddleMail
import HuddleMedia
import HuddlePostgres
import HuddleRuntime

struct Version: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print Huddle's version and commit, and the versions of the system libraries it runs on."
    )

    /// What `huddle --version` prints too: the first line, alone.
    static let line = "huddle \(HuddleVersion.version) (commit \(HuddleVersion.shortCommit))"

    func run() {
        print(Self.line)
        print("libuv \(SystemLibraries.libuvVersion)")
        print("libpq \(SystemLibraries.libpqVersion)")
        print(SystemLibraries.openSSLVersion)
        print("libcurl \(SMTPTransport.libcurlVersion)")
        print("libvips \(ImageProcessor.libraryVersion)")
    }
}
