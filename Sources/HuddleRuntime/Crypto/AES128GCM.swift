import COpenSSL

/// AES-128 in Galois/Counter Mode, from OpenSSL: the cipher of Web Push's
/// `aes128gcm` content coding (RFC 8188).
public enum AES128GCM {
    /// The ciphertext of `plaintext` followed by the 16-byte tag.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8] {
        precondition(key.count == 16 && nonce.count == 12, "AES-128-GCM takes a 16-byte key and a 12-byte nonce")
        let context = EVP_CIPHER_CTX_new()!
        defer { EVP_CIPHER_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: plaintext.count + 16)
        var written: Int32 = 0
        var total = 0
        precondition(EVP_EncryptInit_ex(context, EVP_aes_128_gcm(), nil, key, nonce) == 1, "AES-GCM init failed")
        let updated = output.withUnsafeMutableBufferPointer { output in
            plaintext.withUnsafeBufferPointer { input in
                EVP_EncryptUpdate(context, output.baseAddress, &written, input.baseAddress, Int32(input.count))
            }
        }
        precondition(updated == 1, "AES-GCM failed")
        total = Int(written)
        let finished = output.withUnsafeMutableBufferPointer { EVP_EncryptFinal_ex(context, $0.baseAddress! + total, &written) }
        precondition(finished == 1, "AES-GCM failed")
        total += Int(written)
        let tagged = output.withUnsafeMutableBufferPointer {
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, $0.baseAddress! + total)
        }
        precondition(tagged == 1, "AES-GCM tag failed")
        return Array(output[..<(total + 16)])
    }
}
