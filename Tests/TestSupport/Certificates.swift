import Foundation

/// Why a test's certificate could not be made: what openssl said.
package struct CertificateError: Error, CustomStringConvertible {
    package var description: String
}

/// A self-signed certificate for localhost and its key, made with openssl
/// in `scratch` for a test's TLS server (trusted by pointing a client at
/// the certificate, as a team's own authority would be). Blocks while
/// openssl runs.
package func localhostCertificate(in scratch: ScratchDirectory) throws -> (cert: String, key: String) {
    let cert = scratch.path("cert.pem"), key = scratch.path("key.pem")
    let process = Subprocess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
        "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=localhost",
        "-addext", "subjectAltName=DNS:localhost",
    ]
    let errors = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    try process.run()
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CertificateError(description: "openssl failed: \(said)") }
    return (cert, key)
}
