import Foundation
import PackagePlugin

/// Writes `BuildCommit.swift` into the target it is applied to before every build: the commit of
/// the package's checkout and whether tracked files had uncommitted changes, as git says at build
/// time, so that a run names the commit its binary was built from wherever it runs. Outside a
/// checkout, or without git, both are unknown. The file is rewritten only when its text changes,
/// so an unchanged checkout rebuilds nothing.
@main
struct BuildCommit: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildCommit.swift")
        let package = context.package.directoryURL.path
        // POSIX sh: the commit (12 hex digits) and dirty flag, or unknown; written if changed.
        let script = """
            commit=$(git -C "$1" rev-parse --short=12 HEAD 2>/dev/null) || commit=""
            if [ -n "$commit" ]; then
              if [ -n "$(git -C "$1" status --porcelain --untracked-files=no 2>/dev/null)" ]; then dirty=true; else dirty=false; fi
              text="let buildCommit: String? = \\"$commit\\"
            let buildCommitDirty: Bool? = $dirty"
            else
              text="let buildCommit: String? = nil
            let buildCommitDirty: Bool? = nil"
            fi
            text="// Written by the BuildCommit plugin before each build; not in the source tree.
            $text"
            [ "$(cat "$2" 2>/dev/null)" = "$text" ] || printf '%s\\n' "$text" > "$2"
            """
        return [.prebuildCommand(displayName: "Reading the checkout's commit", executable: URL(fileURLWithPath: "/bin/sh"),
                                 arguments: ["-c", script, "sh", package, output.path], outputFilesDirectory: context.pluginWorkDirectoryURL)]
    }
}
