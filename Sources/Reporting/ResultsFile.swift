import Generation
import Foundation

/// A results CSV read back for `bench compare`: validated row by row, so that a truncated,
/// doctored or foreign file is rejected with its line number instead of being misread.
public struct ResultsFile {
    /// One result row: its identity, its parameters and its figures.
    public struct Row: Sendable {
        public var line: Int
        public var fields: [String: String]
        public var strategy: String { fields["strategy"]! }
        public var workload: String { fields["workload"]! }
        public var variant: String { fields["variant"]! }
        /// "fetch-by-tag/popular", or the workload name; prefixed with a described hierarchy's name
        /// ("efcore-docs: fetch-polymorphic") and followed by a sweep's value ("… [attributes=8]").
        public var caseName: String {
            ResultsFile.caseName(hierarchy: fields["hierarchy"] ?? "", sweepParameter: fields["sweep_parameter"] ?? "",
                                 sweepValue: fields["sweep_value"] ?? "", workload: workload, variant: variant)
        }
        public var key: Key { Key(strategy: strategy, caseName: caseName) }
        public var median: Double
        public var interval: ClosedRange<Double>
        /// Every timed repetition, when the samples file was found beside the CSV.
        public var samples: [Double]?
    }

    static func caseName(hierarchy: String, sweepParameter: String, sweepValue: String, workload: String, variant: String) -> String {
        let base = variant.isEmpty ? workload : "\(workload)/\(variant)"
        let prefix = hierarchy.isEmpty || hierarchy == "publications" ? "" : "\(hierarchy): "
        let suffix = sweepValue.isEmpty ? "" : " [\(sweepParameter.isEmpty ? "value" : sweepParameter)=\(sweepValue)]"
        return prefix + base + suffix
    }

    /// The schema versions this reader understands: 3, and 2 (the same columns without the
    /// hierarchy and sweep columns: the publication model, no sweep).
    static let readableVersions = ["2", String(ResultsCSV.schemaVersion)]

    public struct Key: Hashable, Comparable, Sendable, CustomStringConvertible {
        public var strategy: String
        public var caseName: String
        public static func < (a: Key, b: Key) -> Bool { (a.caseName, a.strategy) < (b.caseName, b.strategy) }
        public var description: String { "\(strategy) \(caseName)" }
    }

    public struct Error: Swift.Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    public let url: URL
    public let rows: [Row]

    /// The columns compare needs; other columns may come and go within a schema version.
    static let requiredColumns = [
        "schema_version", "run_id", "git_commit", "sqlite_version", "build", "host", "seed", "scale", "batch",
        "strategy", "workload", "variant", "median_ns", "ci_low_ns", "ci_high_ns",
    ]

    /// Reads and validates `url`; reads the samples file it names when that file is beside it.
    public init(url: URL) throws {
        self.url = url
        let name = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: name, isDirectory: &isDirectory) else {
            throw Error(description: "\(name) does not exist")
        }
        guard !isDirectory.boolValue else { throw Error(description: "\(name) is a folder, not a results CSV") }
        guard let data = FileManager.default.contents(atPath: name) else { throw Error(description: "\(name) cannot be read") }
        guard let text = String(data: data, encoding: .utf8) else { throw Error(description: "\(name) is not UTF-8 text, so not a results CSV") }
        guard !text.isEmpty else { throw Error(description: "\(name) is empty") }
        guard text.utf8.last == UInt8(ascii: "\n") else { // bytes: "\r\n" is one Character
            throw Error(description: "\(name): the last line does not end with a line break; the file looks truncated")
        }
        let records: [[String]]
        do { records = try CSV.parse(text) } catch { throw Error(description: "\(name): \(error)") }
        let header = records[0]
        guard header.contains("schema_version") else {
            throw Error(description: "\(name): line 1 has no schema_version column; it is not a results CSV written by bench")
        }
        for column in Self.requiredColumns where !header.contains(column) {
            throw Error(description: "\(name): the column \(column) is missing from line 1")
        }
        guard Set(header).count == header.count else { throw Error(description: "\(name): line 1 names a column twice") }
        guard records.count > 1 else { throw Error(description: "\(name) has a header but no results") }

        var rows: [Row] = []
        var seen: [Key: Int] = [:]
        for (offset, record) in records.enumerated().dropFirst() {
            let line = offset + 1
            guard record.count == header.count else {
                throw Error(description: "\(name): line \(line) has \(record.count) fields, the header has \(header.count)")
            }
            let fields = Dictionary(uniqueKeysWithValues: zip(header, record))
            guard Self.readableVersions.contains(fields["schema_version"]!) else {
                throw Error(description: "\(name): line \(line) has CSV schema version \(fields["schema_version"]!), this bench reads versions \(Self.readableVersions.joined(separator: " and ")); rerun the benchmark with this version to compare")
            }
            func number(_ column: String) throws -> Double {
                guard let value = Double(fields[column]!), value.isFinite, value >= 0 else {
                    throw Error(description: "\(name): line \(line): \(column) is '\(fields[column]!)', not a non-negative number")
                }
                return value
            }
            let median = try number("median_ns"), low = try number("ci_low_ns"), high = try number("ci_high_ns")
            guard low <= median, median <= high else {
                throw Error(description: "\(name): line \(line): the median \(median) lies outside its interval \(low)…\(high)")
            }
            let row = Row(line: line, fields: fields, median: median, interval: low ... high, samples: nil)
            if let earlier = seen[row.key] {
                throw Error(description: "\(name): line \(line) repeats \(row.key) from line \(earlier)")
            }
            seen[row.key] = line
            rows.append(row)
        }
        self.rows = try Self.attachSamples(rows, besides: url)
    }

    /// Attaches the repetitions from the samples file each row names, if that file is there.
    /// A samples file that exists but does not match its results is an error, not a silent fallback.
    private static func attachSamples(_ rows: [Row], besides url: URL) throws -> [Row] {
        guard let fileName = rows.first?.fields["samples_file"], !fileName.isEmpty else { return rows }
        let samplesURL = url.deletingLastPathComponent().appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: samplesURL.path) else { return rows }
        let records: [[String]]
        do { records = try CSV.parse(String(decoding: data, as: UTF8.self)) }
        catch { throw Error(description: "\(samplesURL.path): \(error)") }
        // Version 2's samples lacked the hierarchy and sweep_value columns.
        let versionTwo = ["run_id", "strategy", "workload", "variant", "repetition", "ns"]
        guard let header = records.first, header == SamplesCSV.columns || header == versionTwo else {
            throw Error(description: "\(samplesURL.path): line 1 is not the samples header (\(SamplesCSV.columns.joined(separator: ",")))")
        }
        let sweepParameter = rows.first?.fields["sweep_parameter"] ?? ""
        var samples: [Key: [Double]] = [:]
        for (offset, record) in records.enumerated().dropFirst() {
            guard record.count == header.count, let ns = Double(record[header.count - 1]), ns >= 0 else {
                throw Error(description: "\(samplesURL.path): line \(offset + 1) is not a sample (\(header.joined(separator: ", ")))")
            }
            let field = Dictionary(uniqueKeysWithValues: zip(header, record))
            let caseName = Self.caseName(hierarchy: field["hierarchy"] ?? "", sweepParameter: sweepParameter, sweepValue: field["sweep_value"] ?? "",
                                         workload: field["workload"]!, variant: field["variant"]!)
            samples[Key(strategy: field["strategy"]!, caseName: caseName), default: []].append(ns)
        }
        return try rows.map { row in
            var row = row
            guard let found = samples[row.key], Int(row.fields["iterations"] ?? "") ?? found.count == found.count else {
                throw Error(description: "\(samplesURL.path) does not hold the repetitions of \(row.key) that line \(row.line) of the results counts")
            }
            row.samples = found
            return row
        }
    }

    /// The distinct values of a column, in order of appearance.
    public func values(_ column: String) -> [String] {
        var seen: [String] = []
        for row in rows { if let value = row.fields[column], !seen.contains(value) { seen.append(value) } }
        return seen
    }
}
