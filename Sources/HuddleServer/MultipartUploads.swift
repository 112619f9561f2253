import GraphQL
import GraphQLTransport
import HuddleCore
import HuddleMedia
import HuddlePostgres
import HuddleRuntime
import Synchronization

/// The GraphQL multipart request's files, taken by the shared core's
/// `Uploads`: only from a signed-in user within their hourly count, each
/// file remade and staged as it arrives, its `Upload` id put in its place.
struct MultipartUploads: GraphQLUploads {
    let database: PostgresPool
    let tokens: TokenCache?
    let settings: AppSettings
    let processor: ImageProcessor
    /// The media store, when pictures go to a bucket.
    let bucket: S3Bucket?
    /// Where failures that are not the client's go.
    let logger: Logger

    var limits: GraphQLUploadLimits {
        GraphQLUploadLimits(
            maxFileBytes: settings[Shared.uploadFileMegabytes] << 20, maxFiles: settings[Shared.uploadFilesPerRequest],
            maxRequestBytes: settings[Shared.uploadRequestMegabytes] << 20)
    }

    func admit(_ request: HTTPRequest) async throws(GraphQLUploadRefusal) -> any GraphQLUploadReceiver {
        let viewer: RequestContext.Viewer?
        do throws(ServiceUnavailable) {
            viewer = try await Authentication.viewer(
                token: Authentication.bearerToken(request.head.header("authorization")), database: database, cache: tokens,
                settings: settings)
        } catch {
            throw GraphQLUploadRefusal(status: 503, message: error.message, code: "SERVICE_UNAVAILABLE")
        }
        guard let viewer else {
            throw GraphQLUploadRefusal(status: 401, message: "Sign in to upload files.", code: "UNAUTHENTICATED")
        }
        return Receiver(uploads: self, owner: viewer.userID)
    }

    func refusal(_ error: any Error) -> GraphQLUploadRefusal {
        switch error {
        case let refusal as Uploads.Refusal:
            return GraphQLUploadRefusal(status: refusal.status, message: refusal.message, code: refusal.code)
        case let refusal as GraphQLUploadRefusal:
            return refusal
        default:
            logger.log(.error, "upload failed", ["error": .string("\(error)")])
            return GraphQLUploadRefusal(status: 503, message: "The upload could not be kept; try again.", code: "SERVICE_UNAVAILABLE")
        }
    }

    /// One request's files; what it staged, so a failed request leaves none.
    final class Receiver: GraphQLUploadReceiver {
        let uploads: MultipartUploads
        let owner: Int64
        private let staged = Mutex<[String]>([])

        init(uploads: MultipartUploads, owner: Int64) {
            self.uploads = uploads
            self.owner = owner
        }

        func expect(files: Int) async throws(GraphQLUploadRefusal) {
            do {
                try await Uploads.reserve(files, for: owner, settings: uploads.settings, on: uploads.database)
            } catch {
                throw uploads.refusal(error)
            }
        }

        func receive(_ file: GraphQLUploadedFile) async throws(GraphQLUploadRefusal) -> GraphQLValue {
            do {
                let id = try await Uploads.stage(
                    owner: owner, maxBytes: file.maxBytes, processor: uploads.processor, database: uploads.database,
                    bucket: uploads.bucket, next: file.next)
                staged.withLock { $0.append(id) }
                return .string(id)
            } catch {
                throw uploads.refusal(error)
            }
        }

        func abandon() async {
            await Uploads.discard(staged.withLock { $0 }, owner: owner, on: uploads.database)
        }
    }
}
