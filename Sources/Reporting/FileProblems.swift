import Foundation

/// Turns the file errors Foundation throws (an `NSError` of `NSCocoaErrorDomain` or
/// `NSPOSIXErrorDomain`, whose description is a multi-line dump of its user info) into one
/// sentence: what failed, on which path, why, and what to do.
public enum FileProblem {
    /// Whether `error` is one of Foundation's file errors.
    public static func isFoundationFileError(_ error: Error) -> Bool {
        let error = error as NSError
        return error.domain == NSCocoaErrorDomain || error.domain == NSPOSIXErrorDomain
    }

    /// The reason of a Foundation file error in a few words ("Not a directory"), from its POSIX
    /// error when it has one; for any other error, its description on one line.
    public static func reason(for error: Error) -> String {
        guard isFoundationFileError(error) else { return "\(error)".replacingOccurrences(of: "\n", with: " ") }
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(truncatingIfNeeded: error.code))) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(truncatingIfNeeded: underlying.code)))
        }
        return cocoaReason(error.code)
    }

    /// One sentence for a Foundation file error, or nil for any other error.
    public static func sentence(for error: Error) -> String? {
        guard isFoundationFileError(error) else { return nil }
        let reason = reason(for: error)
        let error = error as NSError
        let path = error.userInfo[NSFilePathErrorKey] as? String ?? (error.userInfo[NSURLErrorKey] as? URL)?.path
        guard let path else {
            return "a file operation failed (\(reason)); check that the folders involved exist, are writable and have free space"
        }
        return "could not create or write \(path) (\(reason)); \(advice(for: path))"
    }

    /// What to do about a path that could not be written: TMPDIR for the temporary folder.
    public static func advice(for path: String) -> String {
        let temporary = FileManager.default.temporaryDirectory.standardizedFileURL.path
        if path == temporary || path.hasPrefix(temporary.hasSuffix("/") ? temporary : temporary + "/") {
            return "the temporary folder \(temporary) must be a writable folder with free space: fix it, or set TMPDIR to one"
        }
        return "check that its folder exists, is writable and has free space"
    }

    /// `NSCocoaErrorDomain` codes without an underlying POSIX error.
    static func cocoaReason(_ code: Int) -> String {
        switch code {
        case CocoaError.fileNoSuchFile.rawValue, CocoaError.fileReadNoSuchFile.rawValue: "no such file or folder"
        case CocoaError.fileReadNoPermission.rawValue, CocoaError.fileWriteNoPermission.rawValue: "permission denied"
        case CocoaError.fileWriteOutOfSpace.rawValue: "no space left on the device"
        case CocoaError.fileWriteVolumeReadOnly.rawValue: "read-only file system"
        case CocoaError.fileWriteFileExists.rawValue: "a file of that name already exists"
        case CocoaError.fileWriteInvalidFileName.rawValue, CocoaError.fileReadInvalidFileName.rawValue: "the name is not valid there"
        default: "the file system refused (Foundation error \(code))"
        }
    }
}
