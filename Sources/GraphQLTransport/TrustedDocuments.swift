import GraphQL
import HuddleRuntime
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Trusted documents (the GraphQL-over-HTTP persisted documents proposal):
/// a manifest of `sha256:<hex>` ids and the documents they name, written at
/// build time by `huddle persist` or GraphQL Code Generator's client preset.
/// Clients send `{"documentId": "sha256:…"}`, or Apollo's
/// `extensions.persistedQuery.sha256Hash`, instead of the text; in
/// only-trusted mode no other document runs. Shared by every loop of a
/// process; `reload()` reads the manifest again (on SIGHUP).
public final class TrustedDocuments: Sendable {
    public struct ManifestError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Why a request's document is refused; a GraphQL request error.
    public struct Refusal: Error {
        public var message: String
        public var code: String
    }

    public let path: String
    public let onlyTrusted: Bool
    private let documents: Mutex<[String: String]>

    /// The largest manifest read.
    public static let maxManifestBytes = 64 << 20

    public init(manifest path: String, onlyTrusted: Bool) throws(ManifestError) {
        self.path = path
        self.onlyTrusted = onlyTrusted
        documents = Mutex(try Self.read(path))
    }

    public var count: Int { documents.withLock { $0.count } }

    /// Reads the manifest again; on failure the documents stay as they were.
    /// The number of documents now.
    @discardableResult
    public func reload() throws(ManifestError) -> Int {
        let fresh = try Self.read(path)
        documents.withLock { $0 = fresh }
        return fresh.count
    }

    /// Puts the trusted document in place of a `documentId` or a persisted
    /// query hash, and refuses, in only-trusted mode, any text the manifest
    /// does not hold.
    public func resolve(_ request: inout GraphQLRequest) -> Result<Void, Refusal> {
        if let id = request.documentId {
            guard id.hasPrefix("sha256:") else {
                return .failure(Refusal(message: "Unsupported documentId \"\(id)\": ids are sha256:<hex>.", code: "BAD_REQUEST"))
            }
            guard let document = documents.withLock({ $0[id.lowercased()] }) else {
                return .failure(Refusal(message: "Unknown documentId \"\(id)\".", code: "PERSISTED_QUERY_NOT_FOUND"))
            }
            if let query = request.query, query != document {
                return .failure(Refusal(message: "The query is not the document \"\(id)\" names.", code: "BAD_REQUEST"))
            }
            request.query = document
            return .success(())
        }
        if request.query == nil, let hash = Self.persistedQueryHash(request),
            let document = documents.withLock({ $0["sha256:" + hash.lowercased()] })
        {
            request.query = document
            return .success(())
        }
        if onlyTrusted {
            if let query = request.query {
                let id = "sha256:" + Digest.sha256Hex(Array(query.utf8))
                if documents.withLock({ $0[id] }) != nil { return .success(()) }
            }
            return .failure(
                Refusal(
                    message: "This server runs trusted documents only: send the documentId of a document in its manifest.",
                    code: "TRUSTED_DOCUMENT_REQUIRED"))
        }
        return .success(())
    }

    private static func persistedQueryHash(_ request: GraphQLRequest) -> String? {
        guard case .string(let hash)? = request.persistedQuery?["sha256Hash"]
        else { return nil }
        return hash
    }

    /// `{"sha256:<hex>": "document", …}` (a bare hex key is taken as
    /// sha256), or Apollo's `{"format": "apollo-persisted-query-manifest",
    /// "operations": [{"id", "body"}]}`. Every document must hash to its id.
    static func read(_ path: String) throws(ManifestError) -> [String: String] {
        guard let file = fopen(path, "rb") else {
            throw ManifestError(description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count == 0 { break }
            bytes += chunk[0..<count]
            if bytes.count > maxManifestBytes { throw ManifestError(description: "\(path) is larger than \(maxManifestBytes) bytes") }
        }
        let manifest: GraphQLValue
        do {
            manifest = try JSONReader().read(String(decoding: bytes, as: UTF8.self))
        } catch {
            throw ManifestError(description: "\(path) is not JSON: \(error)")
        }
        var entries: [(id: String, document: GraphQLValue)] = []
        if case .string("apollo-persisted-query-manifest")? = manifest["format"], case .list(let operations)? = manifest["operations"] {
            for operation in operations {
                guard case .string(let id)? = operation["id"], let body = operation["body"] else {
                    throw ManifestError(description: "\(path): an operation without an id or a body")
                }
                entries.append((id, body))
            }
        } else if case .object(let members) = manifest {
            entries = members.map { ($0.name, $0.value) }
        } else {
            throw ManifestError(description: "\(path): a manifest is a JSON object of ids and documents")
        }
        var documents: [String: String] = [:]
        for (key, value) in entries {
            guard case .string(let document) = value else { throw ManifestError(description: "\(path): \(key) is not a string") }
            let id = (key.hasPrefix("sha256:") ? key : "sha256:" + key).lowercased()
            let digest = "sha256:" + Digest.sha256Hex(Array(document.utf8))
            guard id == digest else {
                throw ManifestError(description: "\(path): the document of \(key) hashes to \(digest)")
            }
            documents[id] = document
        }
        return documents
    }
}
