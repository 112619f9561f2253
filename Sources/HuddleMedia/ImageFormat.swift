/// The picture formats accepted, told from the bytes themselves: the file's
/// name and the Content-Type a client sent say nothing (an SVG or a script
/// renamed `.png` is refused here).
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg
    case png
    case webp
    /// HEIC (an iPhone's photos) and AVIF, both in the HEIF container.
    case heif

    /// The format the first bytes announce, or nil for anything else.
    public init?(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(16))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if head.count >= 12, head[0..<4] == Array("RIFF".utf8)[...], head[8..<12] == Array("WEBP".utf8)[...] {
            self = .webp
        } else if head.count >= 12, head[4..<8] == Array("ftyp".utf8)[...],
            Self.heifBrands.contains(String(decoding: head[8..<12], as: UTF8.self))
        {
            self = .heif
        } else {
            return nil
        }
    }

    /// The major brands of HEIC and AVIF files.
    static let heifBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "avif", "avis"]

    /// The libvips loader that must agree (its class name's stem).
    var loader: String {
        switch self {
        case .jpeg: "VipsForeignLoadJpeg"
        case .png: "VipsForeignLoadPng"
        case .webp: "VipsForeignLoadWebp"
        case .heif: "VipsForeignLoadHeif"
        }
    }
}
