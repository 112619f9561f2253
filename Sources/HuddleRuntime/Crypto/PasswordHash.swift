import COpenSSL
import Foundation

/// Password hashes with PBKDF2-HMAC-SHA256 (OpenSSL), stored as
/// `pbkdf2-sha256$ITERATIONS$SALT$HASH` (base64), so the cost can rise
/// later without invalidating stored hashes.
///
/// Hashing takes a good fraction of a second by design: run it on the
/// loop's thread pool (`EventLoop.runInThreadPool`), never on the loop.
public enum PasswordHash {
    /// OWASP's 2023 figure for PBKDF2-HMAC-SHA256.
    public static let defaultIterations = 600_000

    public static func make(_ password: String, iterations: Int = defaultIterations) -> String {
        let salt = RandomBytes.make(16)
        let hash = derive(password, salt: salt, iterations: iterations)
        return "pbkdf2-sha256$\(iterations)$\(Data(salt).base64EncodedString())$\(Data(hash).base64EncodedString())"
    }

    /// Whether `password` matches `stored`, compared in constant time.
    public static func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$")
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let iterations = Int(parts[1]), iterations > 0,
            let salt = Data(base64Encoded: String(parts[2])), let expected = Data(base64Encoded: String(parts[3]))
        else { return false }
        let actual = derive(password, salt: Array(salt), iterations: iterations, length: expected.count)
        return actual.count == expected.count
            && actual.withUnsafeBytes { a in
                expected.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
            }
    }

    private static func derive(_ password: String, salt: [UInt8], iterations: Int, length: Int = 32) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: length)
        let bytes = Array(password.utf8)
        let status = bytes.withUnsafeBufferPointer { passwordBytes in
            passwordBytes.withMemoryRebound(to: CChar.self) { passwordChars in
                PKCS5_PBKDF2_HMAC(
                    passwordChars.baseAddress, Int32(bytes.count), salt, Int32(salt.count), Int32(iterations),
                    EVP_sha256(), Int32(length), &output
                )
            }
        }
        precondition(status == 1, "PBKDF2 failed")
        return output
    }
}

/// Cryptographically strong random bytes from OpenSSL.
public enum RandomBytes {
    public static func make(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        precondition(RAND_bytes(&bytes, Int32(count)) == 1, "RAND_bytes failed")
        return bytes
    }

    /// `count` random bytes as unpadded base64url text (tokens).
    public static func token(_ count: Int = 32) -> String {
        Data(make(count)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
