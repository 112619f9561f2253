import ArgumentParser
import HuddleRuntime

struct Version: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the versions of the system libraries Huddle runs on."
    )

    func run() {
        print("libuv \(SystemLibraries.libuvVersion)")
        print("libpq \(SystemLibraries.libpqVersion)")
        print(SystemLibraries.openSSLVersion)
    }
}
