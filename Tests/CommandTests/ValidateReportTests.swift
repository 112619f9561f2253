import Foundation
import GraphQL
import ServerTestSupport
import TestSupport
import Testing

/// `huddle validate`'s reports for CI: deprecated uses as warnings, each
/// problem with its rule and severity, GitHub annotations, and JUnit XML
/// and SARIF read back by libraries written apart from Huddle
/// (Tests/clients/validate_reports.py: junitparser, sarif-pydantic).
@Suite struct ValidateReportTests {
    let scratch: ScratchDirectory

    init() throws {
        scratch = try ScratchDirectory("huddle-validate-reports")
        _ = try scratch.file(
            "schema.graphql",
            """
            type Query { me: User old: Int @deprecated(reason: "Use me.") }
            type User { id: ID! name: String, nick(style: Int @deprecated): String }
            """)
        _ = try scratch.file("a.graphql", "query A {\n  old\n  me { id nope }\n}\n")
        _ = try scratch.file("b, c.graphql", "query B { me { name nick(style: 1) } }\n")
    }

    func validate(_ arguments: [String]) throws -> HuddleCommand.Outcome {
        try HuddleCommand.run(["validate", "--schema", "schema.graphql"] + arguments + ["a.graphql", "b, c.graphql"], in: scratch.url)
    }

    @Test func deprecatedUsesAreWarningsThatFailOnlyWhenAsked() throws {
        let text = try validate([])
        #expect(text.status == 1)
        #expect(
            text.standardOutput == """
                a.graphql:2:3: warning: The field Query.old is deprecated. Use me.
                a.graphql:3:11: Cannot query field "nope" on type "User". Did you mean "name"?
                b, c.graphql:1:26: warning: Field "User.nick" argument "style" is deprecated. No longer supported
                1 error in 1 file, 2 warnings (2 files, 2 operations, 0 fragments)

                """, "\(text.standardOutput)")
        let onlyWarnings = try HuddleCommand.run(
            ["validate", "--schema", "schema.graphql", "b, c.graphql"], in: scratch.url)
        #expect(onlyWarnings.status == 0, "\(onlyWarnings.standardOutput)")
        let failing = try HuddleCommand.run(
            ["validate", "--fail-on-warnings", "--schema", "schema.graphql", "b, c.graphql"], in: scratch.url)
        #expect(failing.status == 1)
    }

    @Test func jsonNamesEachProblemsRuleAndSeverity() throws {
        let outcome = try validate(["--format", "json"])
        let report = JSON(try JSONReader().read(outcome.standardOutput))
        #expect(report["errors"].array.map { $0["rule"].string } == ["FieldsOnCorrectTypeRule"], "\(report)")
        #expect(report["errors"].array.map { $0["severity"].string } == ["error"])
        #expect(report["warnings"].array.map { $0["rule"].string } == Array(repeating: "NoDeprecatedUsageRule", count: 2))
        #expect(report["warnings"].array.allSatisfy { $0["severity"].string == "warning" })
    }

    @Test func githubAnnotationsAreWorkflowCommandsWithEscapedProperties() throws {
        let outcome = try validate(["--format", "github"])
        #expect(outcome.status == 1)
        #expect(
            outcome.standardOutput == """
                ::warning file=a.graphql,line=2,col=3,title=NoDeprecatedUsageRule::The field Query.old is deprecated. Use me.
                ::error file=a.graphql,line=3,col=11,title=FieldsOnCorrectTypeRule::Cannot query field "nope" on type "User". Did you mean "name"?
                ::warning file=b%2C c.graphql,line=1,col=26,title=NoDeprecatedUsageRule::Field "User.nick" argument "style" is deprecated. No longer supported

                """, "\(outcome.standardOutput)")
    }

    @Test func junitIsReadByJunitparser() async throws {
        let outcome = try validate(["--format", "junit"])
        #expect(outcome.status == 1)
        let path = try scratch.file("report.xml", outcome.standardOutput)
        let read = try await ClientProcess.python("validate_reports.py", ["junit", path]).finished()
        #expect(read.status == 0, "\(read.errors)")
        let report = JSON(try JSONReader().read(read.output))
        #expect(report["tests"].int == 2 && report["failures"].int == 1, "\(report)")
        let cases = report["cases"].array
        #expect(cases.map { $0["name"].string } == ["a.graphql", "b, c.graphql"])
        #expect(cases[0]["failed"].bool == true && cases[0]["type"].string == "FieldsOnCorrectTypeRule", "\(report)")
        #expect(cases[0]["message"].string == #"Cannot query field "nope" on type "User". Did you mean "name"?"#)
        #expect(cases[0]["out"].string == "a.graphql:2:3: warning: The field Query.old is deprecated. Use me.\n")
        #expect(cases[1]["failed"].bool == false && cases[1]["out"].string?.contains("argument \"style\" is deprecated") == true)
    }

    @Test func sarifIsReadBySarifPydantic() async throws {
        let outcome = try validate(["--format", "sarif"])
        #expect(outcome.status == 1)
        let path = try scratch.file("report.sarif", outcome.standardOutput)
        let read = try await ClientProcess.python("validate_reports.py", ["sarif", path]).finished()
        #expect(read.status == 0, "\(read.errors)")
        let report = JSON(try JSONReader().read(read.output))
        #expect(report["version"].string == "2.1.0" && report["driver"].string == "huddle validate", "\(report)")
        #expect(report["rules"].array.map { $0.string } == ["FieldsOnCorrectTypeRule", "NoDeprecatedUsageRule"])
        let results = report["results"].array
        #expect(results.map { $0["level"].string } == ["warning", "error", "warning"], "\(report)")
        #expect(results[1]["ruleId"].string == "FieldsOnCorrectTypeRule" && results[1]["uri"].string == "a.graphql")
        #expect(results[1]["line"].int == 3 && results[1]["column"].int == 11)
        // A file name is a URI reference: percent-encoded.
        #expect(results[2]["uri"].string == "b,%20c.graphql", "\(report)")
    }

    /// A document read from standard input is a test case of its own, failing with its errors.
    @Test func standardInputIsATestCaseOfItsOwn() async throws {
        let outcome = try HuddleCommand.run(
            ["validate", "--format", "junit", "--schema", "schema.graphql", "-"], input: "{ me { nope } }", in: scratch.url)
        #expect(outcome.status == 1)
        let path = try scratch.file("stdin.xml", outcome.standardOutput)
        let read = try await ClientProcess.python("validate_reports.py", ["junit", path]).finished()
        let report = JSON(try JSONReader().read(read.output))
        #expect(report["failures"].int == 1, "\(report)")
        #expect(report["cases"].array.map { $0["name"].string } == ["<stdin>"], "\(report)")
    }
}
