/// The WebP container (RIFF, as Google's container specification lays it
/// out), for one job: taking out the EXIF and XMP chunks that libvips 8.14's
/// encoder writes even when asked not to (it makes an EXIF block from the
/// image's resolution and orientation). The picture's own chunks are kept
/// byte for byte.
enum WebPChunks {
    /// `webp` without EXIF and XMP chunks, its VP8X flags and RIFF size
    /// made to match; nil when it is not a well-formed WebP container.
    static func removingMetadata(from webp: [UInt8]) -> [UInt8]? {
        guard webp.count >= 12, webp[0..<4].elementsEqual("RIFF".utf8), webp[8..<12].elementsEqual("WEBP".utf8) else { return nil }
        var output = Array(webp[0..<12])
        var offset = 12
        while offset + 8 <= webp.count {
            let name = String(decoding: webp[offset..<(offset + 4)], as: UTF8.self)
            let length = Int(webp[offset + 4]) | Int(webp[offset + 5]) << 8 | Int(webp[offset + 6]) << 16 | Int(webp[offset + 7]) << 24
            let end = offset + 8 + length + (length & 1)
            guard end <= webp.count || (end == webp.count + 1 && length & 1 == 1) else { return nil }
            var chunk = Array(webp[offset..<min(end, webp.count)])
            if name == "VP8X", chunk.count > 8 {
                // Flags: 0x08 EXIF, 0x04 XMP.
                chunk[8] &= ~UInt8(0x0C)
            }
            if name != "EXIF" && name != "XMP " { output += chunk }
            offset = end
        }
        let size = UInt32(output.count - 8)
        output[4] = UInt8(size & 0xFF)
        output[5] = UInt8(size >> 8 & 0xFF)
        output[6] = UInt8(size >> 16 & 0xFF)
        output[7] = UInt8(size >> 24 & 0xFF)
        return output
    }
}
