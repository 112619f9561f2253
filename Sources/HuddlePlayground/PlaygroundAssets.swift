import Foundation

/// The files the Playground page loads, all held in memory so that serving
/// one never touches the disk on the loop thread: its own (`Playground/`,
/// built into the binary) and the CodeMirror 5 files it uses, read once at
/// start from Debian's `libjs-codemirror` package.
///
/// CodeMirror is read from the installed package rather than built in so
/// that it keeps the security updates and the licence files apt maintains
/// for it, and the binary does not carry a second copy of 400 KB of
/// JavaScript; the price is that the machine (and the container image)
/// installs `libjs-codemirror`.
public struct PlaygroundAssets: Sendable {
    /// Where Debian installs CodeMirror 5.
    public static let defaultCodeMirrorDirectory = "/usr/share/javascript/codemirror"

    /// The CodeMirror files the page loads, relative to its folder.
    static let codeMirrorFiles = [
        "lib/codemirror.js", "lib/codemirror.css",
        "addon/hint/show-hint.js", "addon/hint/show-hint.css",
        "addon/lint/lint.js", "addon/lint/lint.css",
        "addon/edit/matchbrackets.js", "addon/edit/closebrackets.js",
        "addon/comment/comment.js", "addon/display/placeholder.js",
        "mode/javascript/javascript.js",
    ]

    public struct MissingCodeMirror: Error, CustomStringConvertible {
        public var directory: String
        public var file: String
        public var description: String {
            "the Playground needs CodeMirror 5, but \(directory)/\(file) cannot be read "
                + "(apt-get install libjs-codemirror, or --codemirror-dir / HUDDLE_CODEMIRROR_DIR)"
        }
    }

    /// Each file's bytes by the path it is served at, below `/playground/`.
    let files: [String: [UInt8]]
    /// Why the page cannot be served, when CodeMirror is missing (the
    /// server still starts; the page answers 503 saying what to install).
    public let missing: MissingCodeMirror?

    /// Reads CodeMirror from `codeMirrorDirectory` beside the built-in files.
    public static func load(codeMirrorDirectory: String = defaultCodeMirrorDirectory) -> Self {
        var files: [String: [UInt8]] = [:]
        for file in EmbeddedPlayground.files { files[file.path] = Array(file.text.utf8) }
        for file in codeMirrorFiles {
            guard let data = FileManager.default.contents(atPath: codeMirrorDirectory + "/" + file) else {
                return Self(files: files, missing: MissingCodeMirror(directory: codeMirrorDirectory, file: file))
            }
            files["codemirror/" + file] = Array(data)
        }
        return Self(files: files, missing: nil)
    }

    /// The media type a file is served with, by its extension.
    static func contentType(of path: String) -> String {
        switch path.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        default: "application/octet-stream"
        }
    }
}
