import Foundation
import PostgresTestSupport
import RuntimeTestSupport
import ServerTestSupport
import TestSupport
import Testing

/// The README and `docs/`: every relative link names a file that exists,
/// and every `#anchor` a heading of the page it points into (as GitHub
/// makes them); the README stays short enough to read in five minutes.
@Suite struct DocumentationLinksTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var pages: [URL] {
        let docs = root.appendingPathComponent("docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return [root.appendingPathComponent("README.md")]
            + names.filter { $0.hasSuffix(".md") }.sorted().map { docs.appendingPathComponent($0) }
    }

    /// The text outside fenced code blocks, where links are links.
    static func prose(_ text: String) -> String {
        var inFence = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                return false
            }
            return !inFence
        }.joined(separator: "\n")
    }

    /// `[text](target)` and `![alt](target)` targets.
    static func links(in text: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        let prose = prose(text)
        return pattern.matches(in: prose, range: NSRange(prose.startIndex..., in: prose)).map {
            String(prose[Range($0.range(at: 1), in: prose)!])
        }
    }

    /// GitHub's anchor for a heading: lower case, punctuation but `-` and
    /// `_` dropped, spaces made hyphens.
    static func anchor(_ heading: String) -> String {
        String(
            heading.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
            })
    }

    static func anchors(of text: String) -> Set<String> {
        Set(
            prose(text).split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("#") else { return nil }
                return anchor(String(line.drop { $0 == "#" }.dropFirst()))
            })
    }

    @Test func everyRelativeLinkAndAnchorResolves() throws {
        #expect(Self.pages.count > 8)
        var checked = 0
        for page in Self.pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            for link in Self.links(in: text) where !link.contains("://") && !link.hasPrefix("mailto:") {
                checked += 1
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0])
                let target = path.isEmpty ? page : page.deletingLastPathComponent().appendingPathComponent(path)
                #expect(FileManager.default.fileExists(atPath: target.path), "\(page.lastPathComponent): \(link) names no file")
                if parts.count == 2, target.pathExtension == "md", let linked = try? String(contentsOf: target, encoding: .utf8) {
                    #expect(
                        Self.anchors(of: linked).contains(String(parts[1])),
                        "\(page.lastPathComponent): \(link) names no heading of \(target.lastPathComponent)")
                }
            }
        }
        #expect(checked > 20)
    }

    @Test func anchorsAreGitHubs() {
        #expect(Self.anchor("`@defer` and `@stream`") == "defer-and-stream")
        #expect(Self.anchor("The Habit Buddies API") == "the-habit-buddies-api")
        #expect(
            Self.anchor("Every benchmark in one run (`scripts/bench/all`), 2026-11-26")
                == "every-benchmark-in-one-run-scriptsbenchall-2026-11-26")
    }

    @Test func theReadmeIsShort() throws {
        let lines = try String(contentsOf: Self.pages[0], encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 200)
    }
}
