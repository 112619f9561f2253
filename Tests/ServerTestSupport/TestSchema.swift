import Foundation
import HuddleCore

/// The package's `Schema/` folder on disk, read for the shared core and the
/// apps a test mounts (each app's tests mount that app alone).
package enum TestSchema {
    package static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Schema")

    /// The folder on disk, for the shared core and `apps`.
    package static func directory(mounting apps: [any App.Type]) -> SchemaDirectory {
        SchemaDirectory(url: folder, mounting: apps)
    }
}
