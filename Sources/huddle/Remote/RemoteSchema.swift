import Foundation
import GraphQL

/// A live endpoint's schema, read by introspection: the full September 2025
/// query first, then graphql-js 16's default one for a server that refuses
/// the newer fields.
enum RemoteSchema {
    static func isURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// `headers` as given on the command line: `Name: value`.
    static func fetch(_ address: String, headers: [String]) throws(CommandFailure) -> GraphQLSchema {
        guard let url = URL(string: address) else { throw .usage("\(address) is not a URL") }
        var parsedHeaders: [(name: String, value: String)] = []
        for header in headers {
            guard let colon = header.firstIndex(of: ":"), colon != header.startIndex else {
                throw .usage("--header \(header): expected 'Name: value'")
            }
            parsedHeaders.append(
                (
                    String(header[..<colon]).trimmingCharacters(in: .whitespaces),
                    String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                ))
        }
        let post = HTTPPost(url: url, headers: parsedHeaders)
        var refusals: [String] = []
        for query in [introspectionQuery, legacyIntrospectionQuery] {
            var writer = JSONWriter(capacity: query.utf8.count + 64)
            writer.value(.object([.init("query", .string(query)), .init("operationName", .string("IntrospectionQuery"))]))
            let response: HTTPPost.Response
            do {
                response = try post.send(json: Data(writer.text.utf8))
            } catch {
                throw .usage("\(error)")
            }
            let body = String(decoding: response.body, as: UTF8.self)
            guard let result = try? JSONReader().read(body), case .object = result else {
                throw .usage("\(address) answered \(response.status) without a JSON body" + Self.excerpt(body))
            }
            if result["data"]?["__schema"] != nil {
                do throws(SchemaBuildError) {
                    return try buildClientSchema(result)
                } catch {
                    throw .schema(error.errors)
                }
            }
            refusals.append(Self.messages(result) ?? "answered \(response.status) without data" + Self.excerpt(body))
        }
        throw .usage("\(address) did not answer introspection: " + refusals.joined(separator: "; then "))
    }

    private static func messages(_ result: GraphQLValue) -> String? {
        guard case .list(let errors)? = result["errors"], !errors.isEmpty else { return nil }
        return errors.compactMap { error -> String? in
            if case .string(let message)? = error["message"] { return message }
            return nil
        }.joined(separator: " ")
    }

    private static func excerpt(_ body: String) -> String {
        let trimmed = body.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? "" : ": " + String(trimmed.prefix(200))
    }
}
