import CVips
import Foundation

/// Remakes an uploaded picture, with libvips, into the sizes the apps show,
/// in WebP and JPEG: never served as sent. The format is told from the
/// bytes and must be one accepted; the pixel count is read from the header
/// and refused past the limit before any pixel is decoded (a decompression
/// bomb costs nothing); it is then decoded whole (a truncated file is
/// refused, not shown half grey), turned upright as its orientation tag
/// says, shrunk to each size, and encoded afresh with no metadata (no EXIF,
/// no GPS position, nothing hidden after the image). Blocking and CPU-bound:
/// run it off the event loop.
public struct ImageProcessor: Sendable {
    /// A size the apps show: the longest edge fits in `edge` pixels.
    public struct Size: Sendable, Hashable {
        public var name: String
        public var edge: Int

        public init(_ name: String, edge: Int) {
            self.name = name
            self.edge = edge
        }

        public static let thumbnail = Size("thumbnail", edge: 160)
        public static let feed = Size("feed", edge: 640)
        public static let full = Size("full", edge: 1600)
    }

    /// An encoding served.
    public enum Encoding: String, Sendable, CaseIterable {
        case webp
        case jpeg

        public var contentType: String { self == .webp ? "image/webp" : "image/jpeg" }
        public var fileExtension: String { self == .webp ? "webp" : "jpg" }
    }

    /// One size in one encoding.
    public struct Rendition: Sendable {
        public var size: String
        public var encoding: Encoding
        public var width: Int
        public var height: Int
        public var bytes: [UInt8]
    }

    public enum Refusal: Error, Equatable, CustomStringConvertible {
        /// Not a JPEG, PNG, WebP, HEIC or AVIF by its bytes.
        case notAPicture
        /// More pixels than the limit, as its header says.
        case tooManyPixels(width: Int, height: Int, limit: Int)
        /// A picture that cannot be read to its end (truncated, corrupt).
        case damaged(String)
        /// The server cannot remake pictures now (libvips did not start, the
        /// upload could not be mapped): not the picture's fault.
        case unavailable(String)

        public var description: String {
            switch self {
            case .notAPicture: "not a JPEG, PNG, WebP, HEIC or AVIF picture"
            case .tooManyPixels(let width, let height, let limit): "\(width)×\(height) is more than \(limit) pixels"
            case .damaged(let detail): "the picture cannot be read: \(detail)"
            case .unavailable(let detail): "pictures cannot be remade now: \(detail)"
            }
        }
    }

    public var sizes: [Size]
    /// The most pixels a picture may have (its header's width × height).
    public var maxPixels: Int
    public var quality = 82

    public init(sizes: [Size] = [.thumbnail, .feed, .full], maxPixels: Int = 40_000_000) {
        self.sizes = sizes
        self.maxPixels = maxPixels
    }

    private static let started: Bool = huddle_vips_start() == 0

    /// Every size in every encoding.
    public func process(_ bytes: [UInt8]) throws(Refusal) -> [Rendition] {
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(Refusal) in try process(buffer) } }
        return try result.get()
    }

    /// Every size in every encoding, of the `length` bytes of the file open
    /// at `descriptor` (an upload spooled to disk): mapped, not read into
    /// memory.
    public func process(fileDescriptor descriptor: Int32, length: Int) throws(Refusal) -> [Rendition] {
        guard length > 0 else { throw .notAPicture }
        guard let mapped = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            throw .unavailable("the upload could not be mapped")
        }
        defer { munmap(mapped, length) }
        return try process(UnsafeRawBufferPointer(start: mapped, count: length))
    }

    private func process(_ buffer: UnsafeRawBufferPointer) throws(Refusal) -> [Rendition] {
        guard let format = ImageFormat(sniffing: buffer) else { throw .notAPicture }
        guard Self.started else { throw .unavailable("libvips did not start") }
        let result: Result<[Rendition], Refusal> = {
            // libvips must read it as the format its bytes announce.
            guard let loader = huddle_vips_loader(buffer.baseAddress, buffer.count), String(cString: loader).hasPrefix(format.loader)
            else { return .failure(.notAPicture) }
            var width: Int32 = 0, height: Int32 = 0
            guard huddle_vips_header(buffer.baseAddress, buffer.count, &width, &height) == 0 else {
                return .failure(.damaged(Self.lastError()))
            }
            guard width > 0, height > 0, Int(width) * Int(height) <= maxPixels else {
                return .failure(.tooManyPixels(width: Int(width), height: Int(height), limit: maxPixels))
            }
            // The largest size is decoded from the bytes; each smaller one
            // from the size before it, in memory.
            var renditions: [Rendition] = []
            var previous: OpaquePointer?
            defer { if let previous { huddle_vips_release(previous) } }
            for size in sizes.sorted(by: { $0.edge > $1.edge }) {
                var image: OpaquePointer?
                let made =
                    previous.map { huddle_vips_shrink($0, Int32(clamping: size.edge), &image) }
                    ?? huddle_vips_decode(buffer.baseAddress, buffer.count, Int32(clamping: size.edge), &image)
                guard made == 0, let image else { return .failure(.damaged(Self.lastError())) }
                if let previous { huddle_vips_release(previous) }
                previous = image
                for encoding in Encoding.allCases {
                    var output: UnsafeMutableRawPointer?
                    var length = 0
                    let saved =
                        encoding == .webp
                        ? huddle_vips_webp(image, Int32(quality), &output, &length)
                        : huddle_vips_jpeg(image, Int32(quality), &output, &length)
                    guard saved == 0, let output else { return .failure(.damaged(Self.lastError())) }
                    var encoded = Array(UnsafeRawBufferPointer(start: output, count: length))
                    huddle_vips_free(output)
                    if encoding == .webp {
                        guard let stripped = WebPChunks.removingMetadata(from: encoded) else {
                            return .failure(.damaged("libvips wrote a WebP file that is not well formed"))
                        }
                        encoded = stripped
                    }
                    renditions.append(
                        Rendition(
                            size: size.name, encoding: encoding, width: Int(huddle_vips_width(image)),
                            height: Int(huddle_vips_height(image)), bytes: encoded))
                }
            }
            // In the order the sizes were given.
            let order = Dictionary(sizes.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
            renditions.sort { (order[$0.size] ?? 0, $0.encoding == .webp ? 0 : 1) < (order[$1.size] ?? 0, $1.encoding == .webp ? 0 : 1) }
            return .success(renditions)
        }()
        return try result.get()
    }

    /// libvips's last error, cleared; its first line (the rest names internals).
    private static func lastError() -> String {
        let taken = huddle_vips_take_error()
        defer { free(taken) }
        let text = taken.map { String(cString: $0) } ?? ""
        return text.split(separator: "\n").first.map(String.init) ?? "unknown error"
    }
}

extension ImageProcessor {
    /// The libvips this process runs on (its version, as it reports it).
    public static var libraryVersion: String { String(cString: huddle_vips_version()) }
}
