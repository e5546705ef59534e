import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Removes a folder and everything in it with file descriptors (`openat`, `unlinkat`), one
/// folder open at a time: no path longer than one name is ever built, so a tree nested deeper than
/// the system's path limit is removed too, and no symbolic link is followed (a link is removed,
/// never what it points to).
enum FolderRemoval {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Removes `url` and its contents, the file named `last` directly in it after everything else
    /// (a marker that says what the folder is stays until the folder goes, so that a removal that
    /// fails halfway leaves a folder still known for what it is); returns the bytes they took on
    /// their device (blocks of 512 bytes, as `du` counts, the folder itself left out).
    static func remove(_ url: URL, last: String? = nil) throws -> Int64 {
        let lastName = last.map { Array($0.utf8CString) }
        var current = open(url.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard current >= 0 else { throw failure("cannot open it") }
        // The folders above the current one, innermost last: the name each has in its parent and
        // the parent's identity, checked on the way back up so that a folder moved meanwhile is not
        // mistaken for the parent.
        var above: [(name: [CChar], parent: (dev: UInt, ino: UInt))] = []
        var bytes: Int64 = 0
        defer { close(current) }
        while true {
            if let folder = try emptyExceptFolders(current, keeping: above.isEmpty ? lastName : nil, bytes: &bytes) {
                let child = openat(current, folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard child >= 0 else { throw failure("cannot open a folder inside it") }
                above.append((folder, try identity(current)))
                close(current)
                current = child
                continue
            }
            guard let (name, parent) = above.popLast() else { break }
            let up = openat(current, "..", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard up >= 0 else { throw failure("cannot go back up from a folder inside it") }
            close(current)
            current = up
            guard try identity(current) == parent else { throw failure("a folder inside it moved while it was removed") }
            var info = stat()
            if fstatat(current, name, &info, AT_SYMLINK_NOFOLLOW) == 0 { bytes += Int64(info.st_blocks) * 512 }
            guard unlinkat(current, name, AT_REMOVEDIR) == 0 else { throw failure("cannot remove a folder inside it (\(String(cString: strerror(errno))))") }
        }
        if let lastName {
            var info = stat()
            if fstatat(current, lastName, &info, AT_SYMLINK_NOFOLLOW) == 0 {
                guard unlinkat(current, lastName, 0) == 0 else { throw failure("cannot remove a file inside it (\(String(cString: strerror(errno))))") }
                bytes += Int64(info.st_blocks) * 512
            }
        }
        guard rmdir(url.path) == 0 else { throw failure("cannot remove it (\(String(cString: strerror(errno))))") }
        return bytes
    }

    /// Removes every entry of the folder open at `folder` that is not a folder, but `kept`, adding
    /// their sizes to `bytes`; returns the name of a folder inside it, if one is left.
    private static func emptyExceptFolders(_ folder: Int32, keeping kept: [CChar]?, bytes: inout Int64) throws -> [CChar]? {
        let copy = dup(folder)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            throw failure("cannot list a folder inside it")
        }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = Self.name(of: entry)
            if name == [0x2E, 0] || name == [0x2E, 0x2E, 0] || name == kept { continue }
            var info = stat()
            guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { throw failure("cannot read an entry inside it") }
            if info.st_mode & S_IFMT == S_IFDIR { return name }
            guard unlinkat(folder, name, 0) == 0 else { throw failure("cannot remove a file inside it (\(String(cString: strerror(errno))))") }
            bytes += Int64(info.st_blocks) * 512
        }
        return nil
    }

    /// A directory entry's name as the bytes the system gave, zero-terminated (a name that is not
    /// UTF-8 is removed as it is).
    static func name(of entry: UnsafeMutablePointer<dirent>) -> [CChar] {
        withUnsafeBytes(of: entry.pointee.d_name) { raw in
            let bytes = raw.bindMemory(to: CChar.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return Array(bytes[..<end]) + [0]
        }
    }

    private static func identity(_ folder: Int32) throws -> (dev: UInt, ino: UInt) {
        var info = stat()
        guard fstat(folder, &info) == 0 else { throw failure("cannot read a folder inside it") }
        return (UInt(info.st_dev), UInt(info.st_ino))
    }

    private static func failure(_ description: String) -> Failure { Failure(description: description) }
}
