import Foundation
import Reporting
import StoreFiles
import Strategies

// Messages on standard error, and the warnings every measuring command starts with.

/// Writes a line to standard error, after whatever standard output still buffers: when both go
/// to one file, a warning then lands after the lines printed before it, not in their middle.
func printError(_ line: String) {
    fflush(nil) // every output stream: standard output is the one that buffers
    writeToStandardError(line + "\n")
}

/// Writes `text` to standard error with write(2) and ignores failures: a message never stops the
/// program (`FileHandle.standardError.write` traps when standard error is closed or full, as with
/// `2>&-` or `2>/dev/full`), and the exit status still says what happened.
func writeToStandardError(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return }
        bytes = bytes.dropFirst(written)
    }
}

/// Opens /dev/null on a standard descriptor that was closed (`2>&-`), before anything else opens a
/// file: the first file opened would otherwise take the descriptor's number, and the messages
/// meant for standard error would be written into it (a results CSV, a store).
func reopenClosedStandardDescriptors() {
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
        let null = open("/dev/null", O_RDWR)
        if null >= 0, null != descriptor {
            dup2(null, descriptor)
            close(null)
        }
    }
}

/// Whether standard error is a terminal (progress is shown only there).
var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }

/// The full-disk testing aid must never go unnoticed in a real run.
func warnIfStoresAreCapped() {
    guard let limit = StoreFile.maximumPageCount else { return }
    printError("warning: \(StoreFile.maximumPageCountVariable)=\(limit) is set: every store is capped at \(limit) pages (a testing aid); unset it for real runs")
}

func warnIfDebugBuild() {
    guard RunContext.isDebugBuild else { return }
    printError("""
        warning: this is a DEBUG build: its timings are not meaningful and must not be compared or published.
        warning: build and run in release mode: swift run -c release bench
        """)
}
