import CLibPQ
import HuddleRuntime

extension SystemLibraries {
    /// libpq's version as `major.minor` (PQlibVersion gives major * 10000 + minor).
    public static var libpqVersion: String {
        let version = PQlibVersion()
        return "\(version / 10000).\(version % 10000)"
    }
}
