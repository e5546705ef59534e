extension FlatJSON {
    /// A string literal's content: the bytes between the quotes when it has no escape, else the decoded bytes.
    enum StringContent {
        case raw(UnsafeBufferPointer<UInt8>)
        case decoded([UInt8])

        func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
            switch self {
            case let .raw(bytes): try body(bytes)
            case let .decoded(bytes): try bytes.withUnsafeBufferPointer(body)
            }
        }
    }
}
