/// What this build of Huddle is: a version people and scripts compare, and
/// the commit it was built from, for telling builds of one version apart.
public enum HuddleVersion {
    /// Raised by hand with each release (docs/operations.md, "Versions").
    public static let version = "0.16.0"
    /// The commit (40 hex digits), or "unknown" when built without Git.
    public static let commit = BuildStamp.commit
    /// The first twelve digits of the commit, as people write it.
    public static var shortCommit: String { commit == "unknown" ? commit : String(commit.prefix(12)) }
}
