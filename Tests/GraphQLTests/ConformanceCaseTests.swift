import Foundation
import GraphQL
import Testing

/// The cases where Huddle was once found to disagree with graphql-js 16,
/// kept in the repository (`Fixtures/conformance/`, copied from the shared
/// folder the project's reviewers add them to) so that a clone alone runs
/// them: each folder's `expected.json` is graphql-js's answer, compared as
/// JSON values.
@Suite struct ConformanceCaseTests {
    static let folder = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/conformance")

    static let cases: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { FileManager.default.fileExists(atPath: folder.appendingPathComponent("\($0)/expected.json").path) }.sorted()
    }()

    @Test func theSharedFolderHasCases() {
        // Without the fixtures this suite would check nothing.
        #expect(Self.cases.count >= 2, "no cases under \(Self.folder.path)")
    }

    @Test(arguments: cases)
    func answerMatchesGraphQLJS(_ name: String) async throws {
        let directory = Self.folder.appendingPathComponent(name)
        func text(_ file: String) -> String? { try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8) }
        let testCase = ExecutionCase(
            schema: text("schema.graphql")!, data: text("data.json") ?? "{}", query: text("query.graphql")!,
            variables: text("variables.json") ?? "{}", response: text("expected.json")!
        )
        let answer = try await testCase.run().json()
        let parsed = try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? NSDictionary
        let expected = try JSONSerialization.jsonObject(with: Data(testCase.response.utf8)) as? NSDictionary
        #expect(parsed == expected, "\(answer)")
    }
}
