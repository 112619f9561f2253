import Foundation
import HuddleMedia
import TestSupport
import Testing

/// Pictures remade by libvips and read back by Pillow (Tests/clients/images.py),
/// an independent decoder: the sizes and orientation are right, no metadata
/// survives, and hostile files are refused before any pixel is decoded.
@Suite(.serialized) struct ImageProcessorTests {
    static func pictures() async throws -> ScratchDirectory {
        let folder = try ScratchDirectory("huddle-images")
        let made = try await ClientProcess.python("images.py", ["make", folder.url.path]).finished()
        #expect(made.status == 0, "\(made.errors)")
        return folder
    }

    /// What Pillow reads in `bytes`.
    static func inspect(_ bytes: [UInt8], in folder: ScratchDirectory) async throws -> [String: Any] {
        let file = folder.path("inspect-\(UUID().uuidString)")
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let read = try await ClientProcess.python("images.py", ["inspect", file]).finished()
        return try JSONSerialization.jsonObject(with: Data(read.output.utf8)) as? [String: Any] ?? [:]
    }

    static func file(_ name: String, in folder: ScratchDirectory) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: folder.path(name))))
    }

    @Test func aPhotoIsRemadeUprightInEverySizeWithNoMetadata() async throws {
        let folder = try await Self.pictures()
        let photo = try Self.file("gps.jpg", in: folder)
        #expect(photo.contains(subsequence: Array("Huddle Test Camera".utf8)))
        let renditions = try ImageProcessor().process(photo)
        #expect(
            renditions.map { "\($0.size).\($0.encoding.fileExtension)" } == [
                "thumbnail.webp", "thumbnail.jpg", "feed.webp", "feed.jpg", "full.webp", "full.jpg",
            ])
        for rendition in renditions {
            let read = try await Self.inspect(rendition.bytes, in: folder)
            #expect(read["format"] as? String == (rendition.encoding == .webp ? "WEBP" : "JPEG"), "\(read)")
            // Orientation 6 applied: the 1200×800 photo stands 800 wide, 1200 high (1600 fits it whole).
            let edge = ["thumbnail": 160, "feed": 640, "full": 1200][rendition.size]!
            #expect(
                read["height"] as? Int == edge && read["width"] as? Int == Int((Double(edge) * 2 / 3).rounded()),
                "\(rendition.size): \(read)")
            #expect(rendition.width == read["width"] as? Int && rendition.height == read["height"] as? Int)
            #expect(read["exifTags"] as? Int == 0 && read["gps"] as? Int == 0, "\(read)")
            #expect(!rendition.bytes.contains(subsequence: Array("Huddle Test Camera".utf8)))
        }
    }

    @Test func smallPicturesAreNeverEnlargedAndEveryAcceptedFormatIsRead() async throws {
        let folder = try await Self.pictures()
        let small = try ImageProcessor().process(try Self.file("small.png", in: folder))
        #expect(small.filter { $0.size == "full" }.allSatisfy { $0.width == 300 && $0.height == 200 })
        let tall = try ImageProcessor().process(try Self.file("tall.webp", in: folder))
        #expect(tall.first { $0.size == "feed" }.map { ($0.width, $0.height) } ?? (0, 0) == (427, 640))
        // AVIF and HEIC, in the HEIF container.
        let avif = try Self.file("photo.avif", in: folder)
        #expect(ImageFormat(sniffing: avif) == .heif)
        let fromAVIF = try ImageProcessor().process(avif)
        #expect(fromAVIF.count == 6)
        #expect(fromAVIF.first { $0.size == "feed" }.map { ($0.width, $0.height) } ?? (0, 0) == (640, 427))
        let heic = try Self.file("photo.heic", in: folder)
        #expect(ImageFormat(sniffing: heic) == .heif)
        let fromHEIC = try ImageProcessor().process(heic)
        #expect(fromHEIC.first { $0.size == "feed" }.map { ($0.width, $0.height) } ?? (0, 0) == (427, 640))
    }

    @Test func hostileFilesAreRefusedAndNothingOfAPayloadSurvives() async throws {
        let folder = try await Self.pictures()
        let processor = ImageProcessor()
        #expect(throws: ImageProcessor.Refusal.tooManyPixels(width: 100_000, height: 100_000, limit: 40_000_000)) {
            try processor.process(try Self.file("bomb.png", in: folder))
        }
        #expect(throws: ImageProcessor.Refusal.notAPicture) { try processor.process(try Self.file("svg.png", in: folder)) }
        #expect(throws: ImageProcessor.Refusal.notAPicture) {
            try processor.process(Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 64))
        }
        #expect(throws: ImageProcessor.Refusal.notAPicture) { try processor.process([]) }
        let truncated = try Self.file("truncated.jpg", in: folder)
        do {
            _ = try processor.process(truncated)
            Issue.record("a truncated JPEG was accepted")
        } catch {
            if case .damaged = error {} else { Issue.record("\(error)") }
        }
        // Bytes after the image are not the image: remade, they are gone.
        let polyglot = try processor.process(try Self.file("polyglot.jpg", in: folder))
        #expect(polyglot.allSatisfy { !$0.bytes.contains(subsequence: Array("PAYLOAD-AFTER-THE-IMAGE".utf8)) })
        // At the limit and just over it.
        let exact = ImageProcessor(maxPixels: 1200 * 800)
        #expect(try exact.process(try Self.file("gps.jpg", in: folder)).count == 6)
        #expect(throws: ImageProcessor.Refusal.tooManyPixels(width: 1200, height: 800, limit: 1200 * 800 - 1)) {
            try ImageProcessor(maxPixels: 1200 * 800 - 1).process(try Self.file("gps.jpg", in: folder))
        }
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard !subsequence.isEmpty, count >= subsequence.count else { return false }
        return (0...(count - subsequence.count)).contains { self[$0..<($0 + subsequence.count)].elementsEqual(subsequence) }
    }
}
