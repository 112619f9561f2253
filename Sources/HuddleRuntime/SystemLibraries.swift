import CLibUV
import COpenSSL

/// The versions of the C libraries the runtime is linked against, as the
/// libraries themselves report them at run time (`huddle version`).
public enum SystemLibraries {
    public static var libuvVersion: String {
        String(cString: uv_version_string())
    }

    public static var openSSLVersion: String {
        String(cString: OpenSSL_version(OPENSSL_VERSION))
    }
}
