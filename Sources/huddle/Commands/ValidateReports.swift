import Foundation
import GraphQL

/// `huddle validate`'s report in each format it writes: lines for people,
/// one JSON object, GitHub Actions' workflow commands (annotations on the
/// pull request), JUnit XML and SARIF 2.1.0 (what other CI systems and code
/// scanning read).
struct ValidateReports {
    let report: ProjectDocuments.Report
    let files: Int
    /// Every file read, for JUnit's one test case per file.
    let fileNames: [String]

    private var problems: [ProjectError] { (report.errors + report.warnings).sorted(by: ProjectError.byPlace) }

    /// Compiler-style lines, then `2 errors in 1 file (3 files, 4 operations, 2 fragments)`.
    var text: String {
        var output = problems.map { $0.compilerText() }.joined()
        let counts =
            "\(counted(files, "file")), \(counted(report.operations, "operation")), \(counted(report.fragments, "fragment"))"
        let warnings = report.warnings.isEmpty ? "" : ", \(counted(report.warnings.count, "warning"))"
        if report.errors.isEmpty {
            output += "no errors\(warnings) (\(counts))\n"
        } else {
            let erring = Set(report.errors.compactMap { $0.places.first?.file }).count
            output += "\(counted(report.errors.count, "error")) in \(counted(erring, "file"))\(warnings) (\(counts))\n"
        }
        return output
    }

    var json: String {
        var writer = JSONWriter(capacity: 1024)
        writer.value(
            .object([
                .init("errors", .list(report.errors.map { $0.json() })),
                .init("warnings", .list(report.warnings.map { $0.json() })),
                .init("files", .int(files)), .init("operations", .int(report.operations)),
                .init("fragments", .int(report.fragments)),
            ]))
        return writer.text + "\n"
    }

    /// `::error file=F,line=L,col=C,title=RULE::MESSAGE`, one a problem
    /// (GitHub's workflow commands, escaped as its toolkit escapes them).
    var github: String {
        problems.map { problem in
            var properties: [String] = []
            if let place = problem.places.first {
                properties += ["file=\(Self.property(place.file))", "line=\(place.line)", "col=\(place.column)"]
            }
            properties.append("title=\(Self.property(problem.rule))")
            return "::\(problem.severity.rawValue) \(properties.joined(separator: ","))::\(Self.data(problem.message))\n"
        }.joined()
    }

    private static func data(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    private static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    /// One test suite, one test case a file; a file's errors are its
    /// failure (warnings go to its system-out, as they do not fail).
    var junit: String {
        var byFile: [String: [ProjectError]] = [:]
        var unplaced: [ProjectError] = []
        for problem in problems {
            if let file = problem.places.first?.file { byFile[file, default: []].append(problem) } else { unplaced.append(problem) }
        }
        var cases = ""
        // Standard input is read as "-" and its places named "<stdin>".
        let files = fileNames.map { $0 == "-" ? "<stdin>" : $0 }
        for file in files {
            let found = byFile[file] ?? []
            cases += testCase(name: file, found)
        }
        if !unplaced.isEmpty { cases += testCase(name: "project", unplaced) }
        let total = fileNames.count + (unplaced.isEmpty ? 0 : 1)
        let failing =
            files.filter { (byFile[$0] ?? []).contains { $0.severity == .error } }.count
            + (unplaced.contains { $0.severity == .error } ? 1 : 0)
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="huddle validate" tests="\(total)" failures="\(failing)" errors="0">
            <testsuite name="huddle validate" tests="\(total)" failures="\(failing)" errors="0" skipped="0">
            \(cases)</testsuite>
            </testsuites>

            """
    }

    private func testCase(name: String, _ found: [ProjectError]) -> String {
        let errors = found.filter { $0.severity == .error }
        let warnings = found.filter { $0.severity == .warning }
        var xml = "<testcase classname=\"huddle.validate\" name=\"\(Self.xml(name))\">\n"
        if let first = errors.first {
            let message = errors.count == 1 ? first.message : "\(errors.count) errors, the first: \(first.message)"
            xml += "<failure message=\"\(Self.xml(message))\" type=\"\(Self.xml(first.rule))\">"
            xml += Self.xml(errors.map { $0.compilerText() }.joined())
            xml += "</failure>\n"
        }
        if !warnings.isEmpty {
            xml += "<system-out>\(Self.xml(warnings.map { $0.compilerText() }.joined()))</system-out>\n"
        }
        return xml + "</testcase>\n"
    }

    private static func xml(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            // In an attribute a parser would read them as spaces: written as references, they stay.
            case "\n": escaped += "&#10;"
            case "\r": escaped += "&#13;"
            case "\t": escaped += "&#9;"
            // XML 1.0 has no other control characters, even escaped.
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// SARIF 2.1.0: one run of the `huddle validate` driver, its rules the
    /// ones that found something, a result a problem at its place (a URI
    /// relative to the working folder when the file is under it).
    var sarif: String {
        let rules = Array(Set(problems.map(\.rule))).sorted()
        let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1, $0) })
        let results: [GraphQLValue] = problems.map { problem in
            var members: [GraphQLValue.Member] = [
                .init("ruleId", .string(problem.rule)), .init("ruleIndex", .int(ruleIndex[problem.rule]!)),
                .init("level", .string(problem.severity == .error ? "error" : "warning")),
                .init("message", .object([.init("text", .string(problem.message))])),
            ]
            // Standard input has no URI: a problem there has no location.
            let locations: [GraphQLValue] = problem.places.filter { $0.file != "<stdin>" }.map { place in
                .object([
                    .init(
                        "physicalLocation",
                        .object([
                            .init("artifactLocation", .object([.init("uri", .string(Self.uri(place.file)))])),
                            .init("region", .object([.init("startLine", .int(place.line)), .init("startColumn", .int(place.column))])),
                        ]))
                ])
            }
            if !locations.isEmpty { members.append(.init("locations", .list(locations))) }
            return .object(members)
        }
        let driver: GraphQLValue = .object([
            .init("name", .string("huddle validate")),
            .init("informationUri", .string("https://spec.graphql.org/September2025/#sec-Validation")),
            .init(
                "rules",
                .list(
                    rules.map { rule in
                        .object([
                            .init("id", .string(rule)),
                            .init("shortDescription", .object([.init("text", .string(Self.describe(rule)))])),
                        ])
                    })),
        ])
        var writer = JSONWriter(capacity: 4096)
        writer.value(
            .object([
                .init("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
                .init("version", .string("2.1.0")),
                .init("runs", .list([.object([.init("tool", .object([.init("driver", driver)])), .init("results", .list(results))])])),
            ]))
        return writer.text + "\n"
    }

    /// `FieldsOnCorrectTypeRule` as "Fields on correct type".
    private static func describe(_ rule: String) -> String {
        switch rule {
        case ProjectError.syntaxRule: return "The document is not GraphQL"
        case ProjectError.maxErrorsRule: return "Too many validation errors"
        default:
            var words: [String] = []
            for character in rule.replacingOccurrences(of: "Rule", with: "") {
                if character.isUppercase || words.isEmpty {
                    words.append(String(character))
                } else {
                    words[words.count - 1].append(character)
                }
            }
            return words.enumerated().map { $0 == 0 ? $1 : $1.lowercased() }.joined(separator: " ")
        }
    }

    /// A file's URI: relative (to the working folder, SARIF's usual base) when under it.
    private static func uri(_ file: String) -> String {
        let absolute = URL(fileURLWithPath: file).standardizedFileURL.path
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path + "/"
        let path = absolute.hasPrefix(here) ? String(absolute.dropFirst(here.count)) : absolute
        let allowed = CharacterSet.urlPathAllowed
        let encoded = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
        return absolute.hasPrefix(here) ? encoded : "file://" + encoded
    }
}
