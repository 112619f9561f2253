import COpenSSL

/// HMAC with SHA-256 (RFC 2104), from OpenSSL: webhook signatures and the
/// HKDF of Web Push's encryption.
public enum HMACSHA256 {
    public static func authenticate(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let done = key.withUnsafeBytes { key in
            message.withUnsafeBufferPointer { message in
                HMAC(EVP_sha256(), key.baseAddress, Int32(key.count), message.baseAddress, message.count, &output, &length)
            }
        }
        precondition(done != nil, "HMAC failed")
        return Array(output[..<Int(length)])
    }

    /// HKDF (RFC 5869) with SHA-256, for outputs of at most one block
    /// (32 bytes), which is all Web Push asks for.
    public static func hkdf(salt: [UInt8], inputKey: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        precondition(length <= 32, "one HKDF block at most")
        let pseudorandomKey = authenticate(inputKey, key: salt)
        return Array(authenticate(info + [0x01], key: pseudorandomKey).prefix(length))
    }
}
