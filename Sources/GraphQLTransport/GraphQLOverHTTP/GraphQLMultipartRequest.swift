import GraphQL
import HuddleRuntime

/// The GraphQL multipart request specification: a multipart/form-data body
/// whose first field, `operations`, is the request's JSON with a null for
/// each file; whose second, `map`, names for each file field the places in
/// `operations` it fills (`{"0": ["variables.file"]}`); and whose files
/// follow, in any order. Each file is handed to the uploads' receiver as it
/// arrives and never collected here.
extension GraphQLOverHTTP {
    /// Whether `head` is a multipart request to this endpoint, and if so how
    /// long its body may be (it is streamed, not collected).
    public func streamsBody(_ head: HTTPRequestHead) -> Int? {
        // Asked of every request's head: what is not a POST with a
        // multipart type (its first letter an m) is let go before any work.
        guard let uploads = configuration.uploads, head.method == "POST", let contentType = head.header("content-type"),
            contentType.utf8.first.map({ $0 | 0x20 == UInt8(ascii: "m") }) == true,
            head.path == configuration.path, MultipartParser.boundary(ofContentType: contentType) != nil
        else { return nil }
        return uploads.limits.maxRequestBytes
    }

    /// The request's `operations` with each file's value in its places.
    func multipartOperations(_ request: HTTPRequest, uploads: any GraphQLUploads) async -> Result<
        (body: GraphQLValue, receiver: any GraphQLUploadReceiver), GraphQLOverHTTPFailure
    > {
        let limits = uploads.limits
        guard let body = request.bodyStream,
            let boundary = MultipartParser.boundary(ofContentType: request.head.header("content-type") ?? "")
        else { return .failure(.badRequest("A multipart request needs a boundary in its Content-Type.")) }
        // Two fields besides the files: one part more is refused as it starts.
        let reader = MultipartFormReader(body: body, boundary: boundary, limits: .init(maxParts: limits.maxFiles + 2))
        var receiver: (any GraphQLUploadReceiver)?
        do throws(GraphQLUploadRefusal) {
            let taking = try await uploads.admit(request)
            receiver = taking
            var operations = try await Self.jsonField("operations", from: reader, maxBytes: limits.maxFieldBytes)
            let mapValue = try await Self.jsonField("map", from: reader, maxBytes: limits.maxFieldBytes)
            guard case .object(let entries) = mapValue else { throw Self.malformed("map must be a JSON object.") }
            guard entries.count <= limits.maxFiles else {
                throw GraphQLUploadRefusal(
                    status: 413, message: "A request may carry at most \(limits.maxFiles) files; this one names \(entries.count).",
                    code: "UPLOAD_TOO_LARGE")
            }
            var places: [String: [[String]]] = [:]
            var named: Set<String> = []
            for entry in entries {
                guard places[entry.name] == nil else { throw Self.malformed("map names the file \(entry.name) twice.") }
                guard case .list(let paths) = entry.value, !paths.isEmpty else {
                    throw Self.malformed("map's \(entry.name) must be a list of paths.")
                }
                places[entry.name] = try paths.map { path throws(GraphQLUploadRefusal) in
                    guard case .string(let text) = path else { throw Self.malformed("map's \(entry.name) must be a list of paths.") }
                    guard named.insert(text).inserted else { throw Self.malformed("map names the path \(text) twice.") }
                    guard named.count <= limits.maxPlaces else {
                        throw Self.malformed("map may name at most \(limits.maxPlaces) places in operations.")
                    }
                    let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                    guard operations.value(at: components) == .null else {
                        throw Self.malformed("map's path \(text) is not a null in operations.")
                    }
                    return components
                }
            }
            try await taking.expect(files: places.count)
            var filled: Set<String> = []
            while let part = try await Self.nextPart(of: reader) {
                guard let paths = places[part.name], !filled.contains(part.name) else {
                    throw Self.malformed("the part \(part.name) is not a file map names, or comes twice.")
                }
                let value = try await taking.receive(GraphQLUploadedFile(part, reader: reader, maxBytes: limits.maxFileBytes))
                filled.insert(part.name)
                for path in paths { operations = operations.replacing(at: path[...], with: value) }
            }
            if let missing = places.keys.sorted().first(where: { !filled.contains($0) }) {
                throw Self.malformed("map names the file \(missing), which the request does not carry.")
            }
            // What follows the closing delimiter (little, if anything) is
            // read, so the connection can take the client's next request.
            do throws(MultipartParser.Failure) {
                try await reader.readToEnd(atMost: 64 * 1024)
            } catch {
                throw GraphQLUploadRefusal.from(error)
            }
            return .success((operations, taking))
        } catch {
            await receiver?.abandon()
            return .failure(GraphQLOverHTTPFailure(status: error.status, message: error.message, code: error.code))
        }
    }

    private static func malformed(_ message: String) -> GraphQLUploadRefusal {
        GraphQLUploadRefusal(status: 400, message: "The multipart request is malformed: " + message, code: "BAD_REQUEST")
    }

    private static func nextPart(of reader: MultipartFormReader) async throws(GraphQLUploadRefusal) -> MultipartParser.PartHead? {
        do throws(MultipartParser.Failure) {
            return try await reader.nextPart()
        } catch {
            throw GraphQLUploadRefusal.from(error)
        }
    }

    /// The next part, which must be the field `name`, read as JSON.
    private static func jsonField(_ name: String, from reader: MultipartFormReader, maxBytes: Int) async throws(GraphQLUploadRefusal)
        -> GraphQLValue
    {
        guard let part = try await nextPart(of: reader), part.name == name else {
            throw malformed("its \(name == "operations" ? "first" : "second") field must be \(name).")
        }
        var bytes: [UInt8] = []
        while true {
            let next: [UInt8]?
            do throws(MultipartParser.Failure) {
                next = try await reader.nextContent()
            } catch {
                throw GraphQLUploadRefusal.from(error)
            }
            guard let next else { break }
            bytes += next
            if bytes.count > maxBytes {
                throw GraphQLUploadRefusal(
                    status: 413, message: "The field \(name) is larger than \(maxBytes) bytes.", code: "UPLOAD_TOO_LARGE")
            }
        }
        guard UTF8Validator.isValid(bytes) else { throw malformed("\(name) is not valid UTF-8.") }
        do throws(JSONReader.Error) {
            return try bytes.withUnsafeBufferPointer { buffer throws(JSONReader.Error) in try JSONReader().read(buffer) }
        } catch {
            throw malformed("\(name) is not valid JSON: \(error).")
        }
    }
}

extension GraphQLValue {
    /// The value at `path`: object members by name, list items by index.
    func value(at path: [String]) -> GraphQLValue? {
        var current = self
        for component in path {
            switch current {
            case .object:
                guard let member = current[component] else { return nil }
                current = member
            case .list(let items):
                guard let index = Int(component), items.indices.contains(index) else { return nil }
                current = items[index]
            default: return nil
            }
        }
        return current
    }

    /// This value with `value` at `path` (which `value(at:)` found).
    func replacing(at path: ArraySlice<String>, with value: GraphQLValue) -> GraphQLValue {
        guard let component = path.first else { return value }
        switch self {
        case .object(var members):
            guard let index = members.firstIndex(where: { $0.name == component }) else { return self }
            members[index].value = members[index].value.replacing(at: path.dropFirst(), with: value)
            return .object(members)
        case .list(var items):
            guard let index = Int(component), items.indices.contains(index) else { return self }
            items[index] = items[index].replacing(at: path.dropFirst(), with: value)
            return .list(items)
        default:
            return self
        }
    }
}
