import Foundation
import HuddleMedia
import HuddlePostgres

/// Pictures for the demo data, so that the Playground and clients show
/// something: made here (a colour field and a disc, different for each
/// index), written as PNG, and remade by `ImageProcessor` as any upload is.
package enum DemoPictures {
    /// How many different pictures there are; indexes wrap around.
    package static let count = 12

    /// Each picture's renditions, made once per process on first use; empty
    /// when libvips cannot remake them (the demo then goes without).
    private static let made: [[ImageProcessor.Rendition]] = (0..<count).compactMap { index in
        try? ImageProcessor().process(png(index))
    }

    /// Keeps demo picture `index` for `owner` (nil: no account's), for
    /// `purpose`, in the caller's transaction; its media id, or nil when
    /// there are no demo pictures.
    package static func store(_ index: Int, owner: Int64?, purpose: String, isPrivate: Bool = false, on connection: some PostgresQuerying)
        async throws -> Int64?
    {
        guard !made.isEmpty else { return nil }
        let record = try await MediaLibrary.store(made[index % made.count], owner: owner, purpose: purpose, on: connection)
        if isPrivate { _ = try await connection.query("UPDATE media SET private = true WHERE id = $1", [record.id]) }
        return record.id
    }

    /// An 800×600 PNG: a field shading from one hue to the next, a disc of
    /// a third, placed by `index`.
    package static func png(_ index: Int) -> [UInt8] {
        let width = 800, height = 600
        let hue = Double(index) / Double(count)
        let (cx, cy) = (Double(200 + (index * 97) % 400), Double(150 + (index * 61) % 300))
        var raw: [UInt8] = []
        raw.reserveCapacity((width * 3 + 1) * height)
        for y in 0..<height {
            raw.append(0)  // filter: none
            for x in 0..<width {
                let distance = ((Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy)).squareRoot()
                let color =
                    distance < 140
                    ? rgb(hue: hue + 0.5, value: 0.95)
                    : rgb(hue: hue + Double(x + y) / Double(width + height) / 6, value: 0.55 + 0.35 * Double(y) / Double(height))
                raw += [color.0, color.1, color.2]
            }
        }
        var header: [UInt8] = []
        header += bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // 8 bits, RGB, deflate, no filter, no interlace
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlibStored(raw))
            + chunk("IEND", [])
    }

    private static func rgb(hue: Double, value: Double) -> (UInt8, UInt8, UInt8) {
        let h = (hue - hue.rounded(.down)) * 6
        let f = h - h.rounded(.down)
        let (p, q, t) = (value * 0.35, value * (1 - 0.65 * f), value * (0.35 + 0.65 * f))
        let (r, g, b): (Double, Double, Double) =
            switch Int(h) {
            case 0: (value, t, p)
            case 1: (q, value, p)
            case 2: (p, value, t)
            case 3: (p, q, value)
            case 4: (t, p, value)
            default: (value, p, q)
            }
        return (UInt8(r * 255), UInt8(g * 255), UInt8(b * 255))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    /// A zlib stream of stored (uncompressed) deflate blocks: PNG needs
    /// zlib's framing, not its compression, and libvips reads either.
    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65535, data.count - offset)
            let last: UInt8 = offset + length == data.count ? 1 : 0
            out += [last, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8 & 0xFF)]
            out += data[offset..<(offset + length)]
            offset += length
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian(b << 16 | a)
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
