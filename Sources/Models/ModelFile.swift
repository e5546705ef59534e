import Foundation

/// Reading a model's file (JSON or an Xcode model's `contents`): only a file that ends, and at
/// most one byte more than the largest model the suite reads, so that a device (`/dev/zero`) or an
/// endless pipe is refused in one sentence instead of read forever.
enum ModelFile {
    /// The largest model file the suite reads.
    static let maximumBytes = 16 << 20

    /// What `path` is when it is not a file that ends (a device, a socket), else `nil`.
    /// Symbolic links are followed.
    static func notARegularFile(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        default: return nil
        }
    }

    /// At most `maximumBytes + 1` bytes of `handle`: more than `maximumBytes` means too large.
    static func read(_ handle: FileHandle) throws -> Data {
        try handle.read(upToCount: maximumBytes + 1) ?? Data()
    }
}
