import Generation
import Foundation

/// A results CSV read back for `bench compare`: validated row by row, so that a truncated,
/// doctored or foreign file is rejected with its line number instead of being misread.
public struct ResultsFile {
    /// One result row: its identity, its parameters and its figures.
    public struct Row: Sendable {
        public var line: Int
        public var fields: [String: String]
        // Required columns: every row read has them.
        public var strategy: String { fields["strategy"] ?? "" }
        public var workload: String { fields["workload"] ?? "" }
        public var variant: String { fields["variant"] ?? "" }
        /// "fetch-by-relationship/popular", or the workload name; prefixed with the model's name
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

    /// The schema versions this reader understands: 10; 9 (without `request`); 8 (without `data`: generated objects) to 5; 4 (the same columns without the ratio
    /// columns: `CaseGrid` pairs the samples itself, when they are there); 3 (without `loops`: every
    /// repetition one execution); and 2 (without `loops` and the hierarchy and sweep columns: the
    /// publication model, no sweep).
    static let readableVersions = ["2", "3", "4", "5", "6", "7", "8", "9", String(ResultsCSV.schemaVersion)]

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
    /// Why the samples file beside it was not used, one sentence each (empty when it was used,
    /// or when there is none): its rows then carry no samples.
    public let warnings: [String]

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
        // A FIFO or a device would block the read (or never end): only regular files are read.
        guard (try? FileManager.default.attributesOfItem(atPath: name))?[.type] as? FileAttributeType == .typeRegular else {
            throw Error(description: "\(name) is not a regular file, so not a results CSV")
        }
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
            let row = try Self.row(record, line: offset + 1, header: header, in: name)
            if let earlier = seen[row.key] {
                throw Error(description: "\(name): line \(row.line) repeats \(row.key) from line \(earlier)")
            }
            seen[row.key] = row.line
            rows.append(row)
        }
        (self.rows, self.warnings) = try Self.attachSamples(rows, besides: url)
    }

    /// The row `record`, on `line` of the file `name` under `header` (which holds every required
    /// column), with its schema version, numbers and interval checked.
    private static func row(_ record: [String], line: Int, header: [String], in name: String) throws -> Row {
        guard record.count == header.count else {
            throw Error(description: "\(name): line \(line) has \(record.count) fields, the header has \(header.count)")
        }
        let fields = Dictionary(uniqueKeysWithValues: zip(header, record))
        let version = fields["schema_version"] ?? ""
        guard readableVersions.contains(version) else {
            throw Error(description: "\(name): line \(line) has CSV schema version \(version), this bench reads versions \(readableVersions.dropLast().joined(separator: ", ")) and \(readableVersions.last ?? ""); rerun the "
                + "benchmark with this version to compare")
        }
        for (column, kind) in numericColumns {
            guard let text = fields[column] else { continue }
            if let problem = kind.problem(text) {
                throw Error(description: "\(name): line \(line): \(column) is '\(text)', not \(problem)")
            }
        }
        // Durations, checked above.
        guard let median = fields["median_ns"].flatMap(Double.init), let low = fields["ci_low_ns"].flatMap(Double.init),
              let high = fields["ci_high_ns"].flatMap(Double.init) else {
            throw Error(description: "\(name): line \(line): median_ns, ci_low_ns and ci_high_ns are not all numbers")
        }
        guard low <= median, median <= high else {
            throw Error(description: "\(name): line \(line): the median \(median) lies outside its interval \(low)…\(high)")
        }
        return Row(line: line, fields: fields, median: median, interval: low ... high, samples: nil)
    }

    /// What a numeric column may hold. A results file is refused at the first value outside its
    /// kind, so that `inf`, `nan`, a negative or zero duration or an overflowing count never
    /// reaches the statistics (a bootstrap over them has no meaningful interval).
    indirect enum NumberKind: Sendable {
        /// Empty, or a number of the other kind (the ratio columns of a baseline's own row).
        case optional(NumberKind)
        /// Nanoseconds above 0 and at most `maximumDuration`.
        case duration
        /// Nanoseconds from 0 to `maximumDuration` (a spread: standard deviation, MAD).
        case spread
        /// A whole number from `minimum` up (within 64 bits).
        case whole(minimum: Int64)
        /// A whole number of either sign.
        case signedWhole
        /// The seed: an unsigned 64-bit whole number.
        case seed
        /// A finite number from 0 to 1.
        case fraction
        /// A number from 0 to `largest`.
        case rate
        /// Empty, or a number above 0 and at most `largest`.
        case optionalPositive
        /// Empty, or a number from -`largest` to `largest`.
        case optionalNumber

        /// A repetition longer than about 31 years is not a measurement.
        static let maximumDuration = 1e18
        /// Larger than any rate, budget or sweep value a run writes, far below overflow.
        static let largest = 1e18

        /// Why `text` is not of this kind (a phrase after "is 'x', not"), or nil when it is.
        func problem(_ text: String) -> String? {
            switch self {
            case let .optional(kind):
                guard text.isEmpty else { return kind.problem(text).map { "empty or \($0)" } }
            case .duration:
                guard let value = ResultsFile.decimal(text), value > 0, value <= Self.maximumDuration else {
                    return "a duration in nanoseconds (a number above 0 and at most 1e18)"
                }
            case .spread:
                guard let value = ResultsFile.decimal(text), value >= 0, value <= Self.maximumDuration else {
                    return "a spread in nanoseconds (a number from 0 to 1e18)"
                }
            case let .whole(minimum):
                guard let value = Int64(text), value >= minimum else { return "a whole number from \(minimum) up" }
            case .signedWhole:
                guard Int64(text) != nil else { return "a whole number" }
            case .seed:
                guard UInt64(text) != nil else { return "a seed (a whole number from 0 to \(UInt64.max))" }
            case .fraction:
                guard let value = ResultsFile.decimal(text), (0 ... 1).contains(value) else { return "a fraction from 0 to 1" }
            case .rate:
                guard ResultsFile.decimal(text).map({ (0 ... Self.largest).contains($0) }) == true else { return "a number from 0 to 1e18" }
            case .optionalPositive:
                guard text.isEmpty || ResultsFile.decimal(text).map({ $0 > 0 && $0 <= Self.largest }) == true else {
                    return "empty or a number above 0 and at most 1e18"
                }
            case .optionalNumber:
                guard text.isEmpty || ResultsFile.decimal(text).map({ abs($0) <= Self.largest }) == true else {
                    return "empty or a number from -1e18 to 1e18"
                }
            }
            return nil
        }
    }

    /// The numeric columns of schema versions 2 to 9 and what each may hold; a column missing
    /// from the file is not checked (only `requiredColumns` must be there).
    static let numericColumns: [(String, NumberKind)] = [
        ("cpu_cores", .whole(minimum: 0)), ("memory_bytes", .whole(minimum: 0)), ("page_size", .whole(minimum: 0)),
        ("cache_size", .signedWhole), ("seed", .seed), ("scale", .whole(minimum: 1)), ("batch", .whole(minimum: 1)),
        ("time_budget_s", .optionalPositive), ("sweep_value", .optionalNumber), ("rows", .whole(minimum: 0)),
        ("warmups", .whole(minimum: 0)), ("iterations", .whole(minimum: 1)), ("loops", .whole(minimum: 1)),
        ("median_ns", .duration), ("ci_low_ns", .duration), ("ci_high_ns", .duration), ("ci_coverage", .fraction),
        ("min_ns", .duration), ("max_ns", .duration), ("mean_ns", .duration), ("stddev_ns", .spread),
        ("p90_ns", .duration), ("p99_ns", .duration), ("mad_ns", .spread), ("outliers", .whole(minimum: 0)),
        ("rows_per_s", .rate), ("db_bytes", .whole(minimum: 0)),
        ("ratio", .optionalPositive), ("ratio_low", .optionalPositive), ("ratio_high", .optionalPositive),
        ("ratio_coverage", .optional(.fraction)), ("ratio_rounds", .optional(.whole(minimum: 1))),
        ("vm_steps", .optional(.whole(minimum: 0))), ("fullscan_steps", .optional(.whole(minimum: 0))), ("sorts", .optional(.whole(minimum: 0))),
        ("autoindex_rows", .optional(.whole(minimum: 0))), ("statement_runs", .optional(.whole(minimum: 0))),
        ("cache_hits", .optional(.whole(minimum: 0))), ("cache_misses", .optional(.whole(minimum: 0))),
        ("cache_writes", .optional(.whole(minimum: 0))), ("vm_steps_ratio", .optionalPositive),
        ("sqlite_memory_bytes", .optional(.whole(minimum: 0))), ("peak_rss_bytes", .optional(.whole(minimum: 0))),
        ("mix_weight", .optionalPositive), ("mix_fetches", .optional(.whole(minimum: 1))),
    ]

    /// A finite decimal number as bench writes them (digits, a point, an exponent), or nil:
    /// `Double(_:)` alone would also take "nan", "inf", "infinity" and hexadecimal.
    static func decimal(_ text: String) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains($0) || "+-.eE".utf8.contains($0) }),
              let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// Attaches the repetitions from the samples file the rows name, if that file is there.
    /// A samples file that cannot be parsed, or holds a value that is not a duration, is an error.
    /// One that does not belong to these results (another run, other repetition counts, other
    /// medians) is not used: every row keeps only its CSV interval, and a warning says why.
    private static func attachSamples(_ rows: [Row], besides url: URL) throws -> ([Row], [String]) {
        guard let fileName = rows.first?.fields["samples_file"], !fileName.isEmpty else { return (rows, []) }
        let samplesURL = url.deletingLastPathComponent().appendingPathComponent(fileName)
        let path = samplesURL.path
        let fallback = "using the medians' own intervals (marked *)"
        guard !fileName.contains("/"), fileName != ".", fileName != ".." else {
            return (rows, ["\(url.path) names its samples file '\(fileName)', which is not a file name beside it; \(fallback)"])
        }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return (rows, []) }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            return (rows, ["the samples file \(path) is not a regular file; \(fallback)"])
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return (rows, ["the samples file \(path) cannot be read; \(fallback)"])
        }
        let samples = try Self.samples(in: data, path: path, sweepParameter: rows.first?.fields["sweep_parameter"] ?? "")
        var attached: [Row] = []
        for var row in rows {
            let at = "line \(row.line) of \(url.lastPathComponent)"
            let found = samples[row.key]
            let problem = if let found { Self.mismatch(of: row, with: found, at: at) } else { "it has no repetitions of \(row.key) (\(at))" }
            if let problem {
                return (rows, ["the samples file \(path) does not belong to \(url.path): \(problem); \(fallback)"])
            }
            row.samples = found?.values
            attached.append(row)
        }
        return (attached, [])
    }

    /// The repetitions in the samples file `data`, read from `path`, by row key, with the runs
    /// they are of; `sweepParameter` is the results' (the samples file does not repeat it).
    private static func samples(in data: Data, path: String, sweepParameter: String) throws -> [Key: (runIDs: Set<String>, values: [Double])] {
        let records: [[String]]
        do { records = try CSV.parse(String(decoding: data, as: UTF8.self)) }
        catch { throw Error(description: "\(path): \(error)") }
        // Version 2's samples lacked the hierarchy and sweep_value columns; older files lack position.
        let versionTwo = ["run_id", "strategy", "workload", "variant", "repetition", "ns"]
        guard let header = records.first, [SamplesCSV.columns, SamplesCSV.columnsWithoutPosition, versionTwo].contains(header) else {
            throw Error(description: "\(path): line 1 is not the samples header (\(SamplesCSV.columns.joined(separator: ",")))")
        }
        var samples: [Key: (runIDs: Set<String>, values: [Double])] = [:]
        for (offset, record) in records.enumerated().dropFirst() {
            let line = offset + 1
            guard record.count == header.count else {
                throw Error(description: "\(path): line \(line) has \(record.count) fields, the header has \(header.count) (\(header.joined(separator: ", ")))")
            }
            let field = Dictionary(uniqueKeysWithValues: zip(header, record))
            // Every header read has the columns named here.
            for (column, kind) in [("repetition", NumberKind.whole(minimum: 1)), ("ns", .duration)] {
                if let problem = kind.problem(field[column] ?? "") {
                    throw Error(description: "\(path): line \(line): \(column) is '\(field[column] ?? "")', not \(problem)")
                }
            }
            guard let ns = field["ns"].flatMap(Double.init) else { throw Error(description: "\(path): line \(line): ns is not a number") }
            let caseName = Self.caseName(hierarchy: field["hierarchy"] ?? "", sweepParameter: sweepParameter, sweepValue: field["sweep_value"] ?? "",
                                         workload: field["workload"] ?? "", variant: field["variant"] ?? "")
            let key = Key(strategy: field["strategy"] ?? "", caseName: caseName)
            samples[key, default: ([], [])].runIDs.insert(field["run_id"] ?? "")
            samples[key, default: ([], [])].values.append(ns)
        }
        return samples
    }

    /// Why `found`, the repetitions of `row` in the samples file, do not belong to it (another
    /// run, another count, another median), or `nil` when they do; `at` names the row.
    private static func mismatch(of row: Row, with found: (runIDs: Set<String>, values: [Double]), at: String) -> String? {
        let median = Statistics.quantile(found.values.sorted(), 0.5)
        let runID = row.fields["run_id"] ?? ""
        if found.runIDs != [runID] {
            return "its \(row.key) repetitions are of run \(found.runIDs.sorted().joined(separator: ", ")), \(at) is of run \(runID)"
        } else if let iterations = row.fields["iterations"].flatMap({ Int($0) }), iterations != found.values.count {
            return "it holds \(found.values.count) repetitions of \(row.key), \(at) counts \(iterations)"
        } else if abs(median - row.median) > 0.051 + 1e-9 * row.median {
            return "its \(row.key) repetitions have the median \(ResultsCSV.format(median)) ns, \(at) says \(ResultsCSV.format(row.median)) ns"
        }
        return nil
    }

    /// The distinct values of a column, in order of appearance.
    public func values(_ column: String) -> [String] {
        var seen: [String] = []
        for row in rows { if let value = row.fields[column], !seen.contains(value) { seen.append(value) } }
        return seen
    }
}
