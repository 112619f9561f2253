import COpenSSL

/// A private key from OpenSSL: a P-256 key (VAPID, the APNs provider key,
/// Web Push's per-message keys) or an RSA key (a Google service account's),
/// read from and written to PEM.
public final class PrivateKey: @unchecked Sendable {
    /// The key, never changed after `init`, so it may be shared.
    private let key: OpaquePointer

    private init(_ key: OpaquePointer) {
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    public struct Invalid: Error, CustomStringConvertible {
        public var description: String
    }

    /// The key in a PEM block (PKCS #8 `PRIVATE KEY`, `EC PRIVATE KEY` or `RSA PRIVATE KEY`).
    public convenience init(pem: String) throws(Invalid) {
        let text = Array(pem.utf8)
        // The BIO reads the bytes in place: both within their lifetime.
        let read: OpaquePointer? = text.withUnsafeBytes { bytes in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let key = read else {
            ERR_clear_error()
            throw Invalid(description: "not a PEM private key")
        }
        self.init(key)
        guard isP256 || isRSA else { throw Invalid(description: "the key is neither P-256 nor RSA") }
    }

    /// A new P-256 key.
    public static func generateP256() -> PrivateKey {
        let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil)!
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
            EVP_PKEY_generate(context, &key) == 1, let key
        else { fatalError("P-256 key generation failed") }
        return PrivateKey(key)
    }

    public var isRSA: Bool { EVP_PKEY_is_a(key, "RSA") == 1 }

    public var isP256: Bool {
        guard EVP_PKEY_is_a(key, "EC") == 1 else { return false }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_utf8_string_param(key, "group", &name, name.count, &length) == 1 else { return false }
        let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return group == "prime256v1" || group == "P-256"
    }

    /// The key as a PKCS #8 PEM block.
    public var pem: String {
        let bio = BIO_new(BIO_s_mem())!
        defer { BIO_free(bio) }
        precondition(PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1, "PEM writing failed")
        var bytes = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        let read = BIO_read(bio, &bytes, Int32(bytes.count))
        return String(decoding: bytes.prefix(Int(max(read, 0))), as: UTF8.self)
    }

    /// A P-256 key's public point, uncompressed (65 bytes, starting 0x04),
    /// as Web Push and VAPID write it.
    public var rawPublicKey: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 133)
        var length = 0
        guard EVP_PKEY_get_octet_string_param(key, "encoded-pub-key", &bytes, bytes.count, &length) == 1 else { return [] }
        return Array(bytes[..<length])
    }

    /// The SHA-256 signature of `message`: for a P-256 key the 64 bytes
    /// r ‖ s that JWS's ES256 takes (RFC 7518 §3.4), for RSA PKCS #1 v1.5 (RS256).
    public func signSHA256(_ message: [UInt8]) -> [UInt8] {
        let context = EVP_MD_CTX_new()!
        defer { EVP_MD_CTX_free(context) }
        precondition(EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1, "signing failed")
        var length = 0
        precondition(EVP_DigestSign(context, nil, &length, message, message.count) == 1, "signing failed")
        var signature = [UInt8](repeating: 0, count: length)
        precondition(EVP_DigestSign(context, &signature, &length, message, message.count) == 1, "signing failed")
        signature.removeSubrange(length...)
        return isRSA ? signature : Self.rawECDSA(fromDER: signature)
    }

    /// The secret shared with the holder of `peerPublicKey` (an uncompressed
    /// P-256 point) by ECDH; nil when that is not a point on the curve.
    public func sharedSecret(withPublicKey peerPublicKey: [UInt8]) -> [UInt8]? {
        guard peerPublicKey.count == 65, peerPublicKey[0] == 0x04 else { return nil }
        // A SubjectPublicKeyInfo for a P-256 point is this header and the point.
        let header: [UInt8] = [
            0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D,
            0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
        ]
        let der = header + peerPublicKey
        let peer: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let peer else {
            ERR_clear_error()
            return nil
        }
        defer { EVP_PKEY_free(peer) }
        let context = EVP_PKEY_CTX_new(key, nil)!
        defer { EVP_PKEY_CTX_free(context) }
        var length = 0
        guard EVP_PKEY_derive_init(context) == 1, EVP_PKEY_derive_set_peer(context, peer) == 1,
            EVP_PKEY_derive(context, nil, &length) == 1
        else {
            ERR_clear_error()
            return nil
        }
        var secret = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_derive(context, &secret, &length) == 1 else {
            ERR_clear_error()
            return nil
        }
        return Array(secret[..<length])
    }

    /// r ‖ s, each 32 bytes, from the DER `SEQUENCE { INTEGER r, INTEGER s }` OpenSSL writes.
    static func rawECDSA(fromDER der: [UInt8]) -> [UInt8] {
        var index = 2  // SEQUENCE and its (short) length: a P-256 signature is under 128 bytes
        func integer() -> [UInt8] {
            let length = Int(der[index + 1])
            var value = Array(der[(index + 2)..<(index + 2 + length)])
            index += 2 + length
            while value.count > 32 && value.first == 0 { value.removeFirst() }
            return [UInt8](repeating: 0, count: 32 - value.count) + value
        }
        return integer() + integer()
    }
}
