import Generation

extension RowDecoder {
    /// This decoder's object with its `source` read from the row's last column (a many-to-many
    /// prefetch's row: the destination's columns as a fetch of it selects them, then the key of
    /// the object it is linked to).
    func withSource() -> RowDecoder {
        RowDecoder { row in
            var object = try self.decode(row)
            let last = row.columnCount - 1
            guard !row.isNull(at: last) else { throw CorruptRow("a link row of object \(object.id) has no source key") }
            object.source = row.int64(at: last)
            return object
        }
    }
}
