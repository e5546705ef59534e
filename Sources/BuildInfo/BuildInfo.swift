/// What the build of this binary knew about its sources, from the `BuildCommit` plugin.
public enum BuildInfo {
    /// The commit (12 hex digits) of the checkout this binary was built from; nil outside a git
    /// checkout or without git.
    public static let commit: String? = buildCommit
    /// Whether tracked files differed from that commit when it was built; nil when unknown.
    public static let dirty: Bool? = buildCommitDirty
}
