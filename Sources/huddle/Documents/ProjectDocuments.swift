import Foundation
import GraphQL

/// A line and column in one of a project's files.
struct FilePlace: Hashable, Comparable, CustomStringConvertible {
    var file: String
    var line: Int
    var column: Int

    static func < (left: FilePlace, right: FilePlace) -> Bool {
        (left.file, left.line, left.column) < (right.file, right.line, right.column)
    }

    var description: String { "\(file):\(line):\(column)" }
}

/// One GraphQL document of a front-end project: a `.graphql` file, or a
/// template embedded in a JavaScript, TypeScript or Vue file.
struct ProjectDocument {
    var file: String
    var text: String
    /// Where the text's first character sits in its file (1:1 for a
    /// `.graphql` file; just after the backtick for a template).
    var start: SourceLocation
    /// Whether the template spliced values in (`${Fragment}`).
    var hasSubstitutions = false

    /// A location in the document's text, as a place in its file.
    func place(of location: SourceLocation) -> FilePlace {
        location.line == 1
            ? FilePlace(file: file, line: start.line, column: start.column + location.column - 1)
            : FilePlace(file: file, line: start.line + location.line - 1, column: location.column)
    }
}

/// An error found in a project, with the places it concerns.
struct ProjectError: Hashable {
    enum Severity: String {
        case error
        /// The use of something deprecated: reported, not failing.
        case warning
    }

    var message: String
    var places: [FilePlace]
    /// The operation or fragment its first place is in: `query Feed`,
    /// `fragment UserBits`, `an anonymous query`.
    var definition: String?
    /// The validation rule that found it, as graphql-js names it
    /// (`FieldsOnCorrectTypeRule`), or `SyntaxError`, or `MaxErrors` for
    /// the error that stops validation.
    var rule = "SyntaxError"
    var severity = Severity.error
    /// For an error in a fragment, the operations that spread it (`schema check`).
    var usedBy: [String] = []

    static let syntaxRule = "SyntaxError"

    /// By first place (those without one last), ties kept in order by a stable sort's caller.
    static func byPlace(_ left: ProjectError, _ right: ProjectError) -> Bool {
        switch (left.places.first, right.places.first) {
        case (let a?, let b?): a < b
        case (.some, nil): true
        default: false
        }
    }
    static let maxErrorsRule = "MaxErrors"
}

extension ProjectError {
    /// `{"message", ["definition",] "locations":[{"file","line","column"}]}`.
    func json(naming definition: Bool = false) -> GraphQLValue {
        var members: [GraphQLValue.Member] = [
            .init("message", .string(message)), .init("rule", .string(rule)), .init("severity", .string(severity.rawValue)),
        ]
        if definition {
            members.append(.init("definition", self.definition.map(GraphQLValue.string) ?? .null))
            if self.definition?.hasPrefix("fragment ") == true { members.append(.init("usedBy", .list(usedBy.map { .string($0) }))) }
        }
        if !places.isEmpty {
            members.append(
                .init(
                    "locations",
                    .list(
                        places.map {
                            .object([.init("file", .string($0.file)), .init("line", .int($0.line)), .init("column", .int($0.column))])
                        })))
        }
        return .object(members)
    }

    /// `FILE:LINE:COLUMN: MESSAGE` (`warning: MESSAGE` for a warning), and
    /// an `also here` line for each other place.
    func compilerText(naming definition: Bool = false) -> String {
        let users = usedBy.isEmpty ? "" : ", used by " + usedBy.joined(separator: ", ")
        let suffix = definition ? self.definition.map { " (in \($0)\(users))" } ?? "" : ""
        let text = (severity == .warning ? "warning: " : "") + message + suffix
        guard let first = places.first else { return text + "\n" }
        return "\(first): \(text)\n" + places.dropFirst().map { "  \($0): also here\n" }.joined()
    }
}

/// The documents of a front-end project's files, read together: fragments
/// defined in one file serve operations in others, and operation and
/// fragment names are unique across all of them.
struct ProjectDocuments {
    var documents: [ProjectDocument]
    /// The files read ('-' for standard input), in order.
    var fileNames: [String]
    var fileCount: Int { fileNames.count }

    struct Unreadable: Error, CustomStringConvertible {
        var file: String
        var reason: String
        var description: String { "cannot read \(file): \(reason)" }
    }

    /// Reads each file (`-` is standard input, as a `.graphql` file).
    static func read(files: [String]) throws(Unreadable) -> ProjectDocuments {
        var documents: [ProjectDocument] = []
        for file in files {
            let text: String
            if file == "-" {
                text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            } else {
                do {
                    text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self)
                } catch {
                    throw Unreadable(file: file, reason: error.localizedDescription)
                }
            }
            let name = file == "-" ? "<stdin>" : file
            let fileExtension = URL(fileURLWithPath: file).pathExtension.lowercased()
            if EmbeddedDocuments.extensions.contains(fileExtension) {
                let host = Source(body: text, name: name)
                for template in EmbeddedDocuments.templates(in: text, vue: fileExtension == "vue") {
                    documents.append(
                        ProjectDocument(
                            file: name, text: template.text, start: host.location(at: template.offset),
                            hasSubstitutions: template.hasSubstitutions))
                }
            } else {
                documents.append(ProjectDocument(file: name, text: text, start: SourceLocation(line: 1, column: 1)))
            }
        }
        return ProjectDocuments(documents: documents, fileNames: files)
    }

    /// What validating a project found.
    struct Report {
        var errors: [ProjectError]
        /// Uses of deprecated fields, arguments, input fields and enum values.
        var warnings: [ProjectError] = []
        /// The definitions of the documents that parse, in order.
        var definitions: [Definition] = []
        var operations = 0
        var fragments = 0
    }

    /// Every document parsed on its own (a syntax error is one error, and
    /// that document sits out), then all of them validated as one document
    /// against `schema`. Errors come sorted by their first place.
    func validate(schema: GraphQLSchema, maxErrors: Int) -> Report {
        var errors: [ProjectError] = []
        var parsed: [ProjectDocument] = []
        for document in documents {
            do throws(GraphQLError) {
                _ = try GraphQL.parse(Source(body: document.text, name: document.file), options: .trusted)
                parsed.append(document)
            } catch {
                errors.append(ProjectError(message: error.message, places: error.locations.map(document.place(of:))))
            }
        }
        var report = Report(errors: [])
        if !parsed.isEmpty {
            // One text, each document on lines of its own, so that an error's
            // line says which document it is in.
            var combined = ""
            var offsets: [Int] = []
            for document in parsed {
                offsets.append(combined.utf8.count)
                combined += document.text
                combined += "\n"
            }
            let source = Source(body: combined, name: "project")
            let startLines = offsets.map { source.location(at: $0).line }
            do throws(GraphQLError) {
                let whole = try GraphQL.parse(source, options: .trusted)
                report.definitions = whole.definitions
                var definitions: [(start: SourceLocation, end: SourceLocation, name: String)] = []
                for definition in whole.definitions {
                    let name: String
                    switch definition {
                    case .operation(let operation):
                        report.operations += 1
                        name =
                            operation.name.map { "\(operation.operation.rawValue) \($0.value)" }
                            ?? "an anonymous \(operation.operation.rawValue)"
                    case .fragment(let fragment):
                        report.fragments += 1
                        name = "fragment \(fragment.name.value)"
                    default: continue
                    }
                    definitions.append(
                        (source.location(at: definition.location.start), source.location(at: definition.location.end), name))
                }
                func projectError(_ error: GraphQLError, rule: String?, severity: ProjectError.Severity) -> ProjectError {
                    let places = error.locations.map { location in
                        let index = Self.lastIndex(in: startLines, notAbove: location.line)
                        return parsed[index].place(
                            of: SourceLocation(line: location.line - startLines[index] + 1, column: location.column))
                    }
                    let enclosing = error.locations.first.flatMap { location in
                        definitions.first {
                            ($0.start.line, $0.start.column) <= (location.line, location.column)
                                && (location.line, location.column) < ($0.end.line, $0.end.column)
                        }?.name
                    }
                    return ProjectError(
                        message: error.message, places: places, definition: enclosing, rule: rule ?? ProjectError.maxErrorsRule,
                        severity: severity)
                }
                for (error, rule) in validateNamingRules(schema: schema, document: whole, source: source, maxErrors: maxErrors) {
                    errors.append(projectError(error, rule: rule, severity: .error))
                }
                // Every use of something deprecated, however many errors stopped validation.
                report.warnings = validateNamingRules(
                    schema: schema, document: whole, source: source, rules: [NoDeprecatedUsageRule.self], maxErrors: .max
                ).map { projectError($0.error, rule: $0.rule, severity: .warning) }.sorted(by: ProjectError.byPlace)
            } catch {
                // Each part parsed alone; together they can only fail where one
                // ends inside a construct the next closes, which parsing alone
                // rules out. Reported rather than trusted.
                errors.append(ProjectError(message: error.message, places: []))
            }
        }
        report.errors = errors.enumerated().sorted { left, right in
            switch (left.element.places.first, right.element.places.first) {
            case (let a?, let b?): return a != b ? a < b : left.offset < right.offset
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return left.offset < right.offset
            }
        }.map(\.element)
        return report
    }

    private static func lastIndex(in sorted: [Int], notAbove value: Int) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return max(0, low - 1)
    }
}
