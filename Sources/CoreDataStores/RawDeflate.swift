import CZlib

/// Raw deflate (RFC 1951: no zlib or gzip header), the compression of a Core Data store's
/// `Z_MODELCACHE.Z_CONTENT`, through the system zlib. Inflating stops at a size cap, so that a
/// small hostile blob (a "deflate bomb") cannot take the machine's memory.
///
/// See <https://www.zlib.net/manual.html> (`inflateInit2` with negative window bits).
public enum RawDeflate {
    /// What goes wrong inflating: the sentence says what the data is not.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case corrupt(String)
        case truncated
        case tooLarge(limit: Int)

        public var description: String {
            switch self {
            case let .corrupt(message): "is not raw-deflate data (\(message))"
            case .truncated: "is cut short (the deflate stream does not end)"
            case let .tooLarge(limit): "inflates to more than \(limit) bytes"
            }
        }
    }

    /// The bytes `data` inflates to, at most `limit` of them; data after the stream's end is ignored.
    public static func inflate(_ data: [UInt8], limit: Int) throws -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure.corrupt("zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = data
        return try input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while true {
                let (code, produced) = chunk.withUnsafeMutableBufferPointer { buffer -> (Int32, Int) in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    let code = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (code, buffer.count - Int(stream.avail_out))
                }
                if output.count + produced > limit { throw Failure.tooLarge(limit: limit) }
                output.append(contentsOf: chunk[0 ..< produced])
                switch code {
                case Z_STREAM_END: return output
                case Z_OK: continue
                case Z_BUF_ERROR where stream.avail_in == 0: throw Failure.truncated
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "zlib code \(code)"
                    throw Failure.corrupt(message)
                }
            }
        }
    }

    /// `data` compressed as raw deflate (what Core Data writes; the suite's test stores use it).
    public static func deflate(_ data: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        guard deflateInit2_(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { preconditionFailure("zlib deflateInit2 failed") }
        defer { deflateEnd(&stream) }
        var input = data
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))) + 16)
        let count = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target -> Int in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                let code = CZlib.deflate(&stream, Z_FINISH)
                precondition(code == Z_STREAM_END, "deflate with a bound-sized buffer finishes in one call")
                return target.count - Int(stream.avail_out)
            }
        }
        return Array(output.prefix(count))
    }
}
