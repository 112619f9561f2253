import ArgumentParser

@main
struct Huddle: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "huddle",
        abstract: "Huddle: one GraphQL back end for four social apps.",
        subcommands: [Format.self, SchemaCommand.self, Bench.self, Version.self]
    )
}
