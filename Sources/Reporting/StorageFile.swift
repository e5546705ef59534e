import Foundation

/// A storage CSV (`bench storage`) read back for the HTML report: one record per table or index
/// of each strategy's store, and a `(file)` record per strategy.
public struct StorageFile {
    public let url: URL
    /// Each record as column → value.
    public let records: [[String: String]]

    /// The columns the report shows; the others may come and go.
    static let requiredColumns = ["strategy", "object", "type", "pages", "bytes", "bytes_per_publication", "null_share"]

    public struct Error: Swift.Error, CustomStringConvertible {
        public let description: String
    }

    public init(url: URL) throws {
        self.url = url
        let text = try Self.readText(url, what: "a storage CSV")
        let rows: [[String]]
        do { rows = try CSV.parse(text) } catch { throw Error(description: "\(url.path): \(error)") }
        guard let header = rows.first, !header.isEmpty else { throw Error(description: "\(url.path) is empty") }
        for column in Self.requiredColumns where !header.contains(column) {
            throw Error(description: "\(url.path): the column \(column) is missing from line 1; it is not a storage CSV written by bench storage")
        }
        var records: [[String: String]] = []
        for (offset, row) in rows.enumerated().dropFirst() {
            guard row.count == header.count else {
                throw Error(description: "\(url.path): line \(offset + 1) has \(row.count) fields, the header has \(header.count)")
            }
            records.append(Dictionary(zip(header, row), uniquingKeysWith: { a, _ in a }))
        }
        self.records = records
    }

    /// The `(file)` records, one per strategy.
    public var files: [[String: String]] { records.filter { $0["object"] == "(file)" } }

    /// A regular, readable UTF-8 text file's content, or one sentence saying why not.
    /// - parameter what: what the file should be ("a storage CSV").
    public static func readText(_ url: URL, what: String) throws -> String {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw Error(description: "\(path) does not exist") }
        guard !isDirectory.boolValue else { throw Error(description: "\(path) is a folder, not \(what)") }
        guard (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType == .typeRegular else {
            throw Error(description: "\(path) is not a regular file, so not \(what)")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw Error(description: "\(path) cannot be read") }
        guard let text = String(data: data, encoding: .utf8) else { throw Error(description: "\(path) is not UTF-8 text, so not \(what)") }
        return text
    }
}
