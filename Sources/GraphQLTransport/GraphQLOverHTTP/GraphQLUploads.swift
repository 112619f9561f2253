import GraphQL
import HuddleRuntime
import Synchronization

/// What the GraphQL multipart request specification's requests may carry.
public struct GraphQLUploadLimits: Sendable {
    /// One file's bytes.
    public var maxFileBytes: Int
    /// Files in one request.
    public var maxFiles: Int
    /// The whole body, every part and delimiter included.
    public var maxRequestBytes: Int
    /// The `operations` and `map` fields, each.
    public var maxFieldBytes: Int
    /// The places in `operations` that `map` names, all files together.
    public var maxPlaces: Int

    public init(
        maxFileBytes: Int = 20 << 20, maxFiles: Int = 10, maxRequestBytes: Int = 64 << 20, maxFieldBytes: Int = 1 << 20,
        maxPlaces: Int = 100
    ) {
        self.maxFileBytes = maxFileBytes
        self.maxFiles = maxFiles
        self.maxRequestBytes = maxRequestBytes
        self.maxFieldBytes = maxFieldBytes
        self.maxPlaces = maxPlaces
    }
}

/// Why files were not taken: the request is answered with this status and
/// an error carrying `code`.
public struct GraphQLUploadRefusal: Error, Sendable {
    public var status: Int
    public var message: String
    public var code: String

    public init(status: Int, message: String, code: String) {
        self.status = status
        self.message = message
        self.code = code
    }
}

/// Where the files of multipart requests go: the transport asks `admit`
/// who sends them before it reads anything of the body (a client that may
/// not upload costs nothing more), reads `operations` and `map`, tells the
/// receiver how many files follow, hands each to it as it arrives, and runs
/// the operation with the value each file became in its place.
public protocol GraphQLUploads: Sendable {
    var limits: GraphQLUploadLimits { get }
    /// The receiver of this request's files, or why none are taken.
    func admit(_ request: HTTPRequest) async throws(GraphQLUploadRefusal) -> any GraphQLUploadReceiver
}

/// Takes one request's files.
public protocol GraphQLUploadReceiver: Sendable {
    /// The request names `files` files, none read yet; may refuse them (a
    /// count per hour).
    func expect(files: Int) async throws(GraphQLUploadRefusal)
    /// Takes `file` as it arrives (reading it to its end, or refusing it);
    /// the value its places in the variables get.
    func receive(_ file: GraphQLUploadedFile) async throws(GraphQLUploadRefusal) -> GraphQLValue
    /// The request failed after some files were taken: nothing of them may stay.
    func abandon() async
}

/// One file of a multipart request, read as it arrives.
public final class GraphQLUploadedFile: Sendable {
    /// The form field it came in.
    public let field: String
    /// The name the client gave it; never a path to trust.
    public let filename: String?
    /// What the client says it is; a receiver decides from the bytes.
    public let contentType: String?
    public let maxBytes: Int
    private let reader: MultipartFormReader
    private let read = Mutex(0)

    init(_ head: MultipartParser.PartHead, reader: MultipartFormReader, maxBytes: Int) {
        field = head.name
        filename = head.filename
        contentType = head.contentType
        self.maxBytes = maxBytes
        self.reader = reader
    }

    /// The next bytes of the file, nil at its end; a file past `maxBytes`
    /// is refused with 413 and `UPLOAD_TOO_LARGE`.
    public func next() async throws(GraphQLUploadRefusal) -> [UInt8]? {
        let bytes: [UInt8]?
        do throws(MultipartParser.Failure) {
            bytes = try await reader.nextContent()
        } catch {
            throw GraphQLUploadRefusal.from(error)
        }
        guard let bytes else { return nil }
        let total = read.withLock { read in
            read += bytes.count
            return read
        }
        if total > maxBytes {
            throw GraphQLUploadRefusal(
                status: 413, message: "The file \(field) is larger than \(maxBytes) bytes.", code: "UPLOAD_TOO_LARGE")
        }
        return bytes
    }
}

extension GraphQLUploadRefusal {
    static func from(_ failure: MultipartParser.Failure) -> GraphQLUploadRefusal {
        GraphQLUploadRefusal(
            status: failure.status, message: "The multipart request is refused: \(failure.reason).",
            code: failure.status == 413 ? "UPLOAD_TOO_LARGE" : failure.status == 408 ? "REQUEST_TIMEOUT" : "BAD_REQUEST")
    }
}
