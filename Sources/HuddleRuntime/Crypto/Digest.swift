import COpenSSL

/// Message digests from OpenSSL.
public enum Digest {
    /// Lower-case hexadecimal SHA-256 of `bytes` (persisted-query hashes,
    /// migration checksums).
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { input in
            _ = SHA256(input.baseAddress, input.count, &digest)
        }
        let hex = Array("0123456789abcdef".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(64)
        for byte in digest {
            output.append(hex[Int(byte >> 4)])
            output.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: output, as: UTF8.self)
    }
}
