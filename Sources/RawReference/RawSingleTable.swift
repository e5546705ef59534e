import CSQLite
import Dataset
import Foundation
import Strategies

/// The single-table insert and full fetch done with direct SQLite C calls: no wrapper classes, no
/// statement cache, no model objects. It is the yardstick for the suite's own overhead: the
/// `single-table` strategy does the same SQL work through the wrapper and materialises objects,
/// and the two are measured side by side (CSV strategy `raw`).
///
/// This module and `SQLite` are the only importers of `CSQLite`; this one exists to bypass the wrapper.
public final class RawSingleTable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private var db: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    /// Opens an existing single-table store (schema and tags already created) with the suite's pragmas.
    public init(path: String) throws {
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw Failure(description: "raw: cannot open \(path): \(message)")
        }
        try exec("PRAGMA journal_mode = \(StoreFile.journalMode); PRAGMA synchronous = \(StoreFile.synchronous)")
        for sql in Array(SingleTableStrategy.insertSQL.values) + [
            SingleTableStrategy.insertTagLinkSQL, SingleTableStrategy.fetchAllSQL, CoreDataStore.readMaxSQL, CoreDataStore.reserveSQL,
        ] {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK, let statement else {
                throw failure(sql)
            }
            statements[sql] = statement
        }
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(db)
    }

    private func failure(_ sql: String) -> Failure {
        Failure(description: "raw: SQLite error \(sqlite3_extended_errcode(db)): \(String(cString: sqlite3_errmsg(db))) - while executing `\(sql)`")
    }

    private func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
    }

    private func done(_ statement: OpaquePointer, _ sql: String) throws {
        guard sqlite3_step(statement) == SQLITE_DONE else { throw failure(sql) }
        sqlite3_reset(statement)
    }

    /// Inserts publications and their tag links as one transaction, as `SingleTableStrategy.insert` does.
    public func insert(_ publications: [GeneratedPublication]) throws {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        func text(_ statement: OpaquePointer, _ index: Int32, _ value: String) {
            var value = value
            value.withUTF8 { bytes in
                guard !bytes.isEmpty else { _ = sqlite3_bind_text(statement, index, "", 0, transient); return }
                bytes.withMemoryRebound(to: CChar.self) {
                    _ = sqlite3_bind_text(statement, index, $0.baseAddress, Int32($0.count), transient)
                }
            }
        }
        try exec("BEGIN IMMEDIATE")
        let root: Int64 = SingleTableStrategy.entityNumbers[.publication]!
        let readMax = statements[CoreDataStore.readMaxSQL]!
        sqlite3_bind_int64(readMax, 1, root)
        guard sqlite3_step(readMax) == SQLITE_ROW else { throw failure(CoreDataStore.readMaxSQL) }
        let current = sqlite3_column_int64(readMax, 0)
        sqlite3_reset(readMax)
        let reserve = statements[CoreDataStore.reserveSQL]!
        sqlite3_bind_int64(reserve, 1, current + Int64(publications.count))
        sqlite3_bind_int64(reserve, 2, root)
        sqlite3_bind_int64(reserve, 3, current)
        try done(reserve, CoreDataStore.reserveSQL)

        let link = statements[SingleTableStrategy.insertTagLinkSQL]!
        var pk = current + 1
        for publication in publications {
            let item = publication.item
            let sql = SingleTableStrategy.insertSQL[item.kind]!
            let insert = statements[sql]!
            sqlite3_bind_int64(insert, 1, pk)
            sqlite3_bind_int64(insert, 2, SingleTableStrategy.entityNumbers[item.kind]!)
            sqlite3_bind_int64(insert, 3, 1)
            withUnsafeBytes(of: item.uid.uuid) { _ = sqlite3_bind_blob(insert, 4, $0.baseAddress, 16, transient) }
            text(insert, 5, item.title)
            sqlite3_bind_double(insert, 6, item.publishDate.timeIntervalSinceReferenceDate)
            sqlite3_bind_double(insert, 7, item.createdate.timeIntervalSinceReferenceDate)
            sqlite3_bind_double(insert, 8, item.updatedate.timeIntervalSinceReferenceDate)
            switch item.content {
            case .publication: break
            case let .book(isbn, pageCount): text(insert, 9, isbn); sqlite3_bind_int64(insert, 10, Int64(pageCount))
            case let .academicPaper(paperType, doi): sqlite3_bind_int64(insert, 9, Int64(paperType)); text(insert, 10, doi)
            case let .webArticle(url, wordCount): text(insert, 9, url); sqlite3_bind_int64(insert, 10, Int64(wordCount))
            case let .blogPost(url, blogName): text(insert, 9, url); text(insert, 10, blogName)
            }
            try done(insert, sql)
            for tag in publication.tagIndexes {
                sqlite3_bind_int64(link, 1, pk)
                sqlite3_bind_int64(link, 2, Int64(tag + 1))
                try done(link, SingleTableStrategy.insertTagLinkSQL)
            }
            pk += 1
        }
        try exec("COMMIT")
    }

    /// Runs the polymorphic fetch and reads every column of every row with `sqlite3_column_*`,
    /// folding the values into a checksum instead of building objects. Returns the row count and checksum.
    public func fetchAll() throws -> (rows: Int, checksum: UInt64) {
        let statement = statements[SingleTableStrategy.fetchAllSQL]!
        defer { sqlite3_reset(statement) }
        var rows = 0
        var checksum: UInt64 = 0
        let columns = sqlite3_column_count(statement)
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw failure(SingleTableStrategy.fetchAllSQL) }
            rows += 1
            for column in 0 ..< columns {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: checksum = checksum &* 31 &+ UInt64(bitPattern: sqlite3_column_int64(statement, column))
                case SQLITE_FLOAT: checksum = checksum &* 31 &+ sqlite3_column_double(statement, column).bitPattern
                case SQLITE_TEXT:
                    let text = sqlite3_column_text(statement, column)
                    let count = Int(sqlite3_column_bytes(statement, column))
                    checksum = checksum &* 31 &+ UInt64(count) &+ UInt64(text?[count / 2] ?? 0)
                case SQLITE_BLOB:
                    let blob = sqlite3_column_blob(statement, column)
                    let count = Int(sqlite3_column_bytes(statement, column))
                    checksum = checksum &* 31 &+ UInt64(count) &+ UInt64(blob?.load(fromByteOffset: 0, as: UInt8.self) ?? 0)
                default: break
                }
            }
        }
        return (rows, checksum)
    }
}
