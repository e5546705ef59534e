import CSQLite

/// A value an SQL function the suite registers takes or returns, by SQLite's storage class.
public enum FunctionValue: Sendable, Equatable {
    case null, integer(Int64), real(Double), text(String), blob([UInt8])
}

extension Database {
    /// Registers the deterministic scalar function `name` of `arity` arguments on this connection
    /// (as Core Data registers its own on each of its connections), replacing one of that name.
    /// See <https://www.sqlite.org/c3ref/create_function.html>.
    public func createFunction(_ name: String, arity: Int32, _ body: @escaping @Sendable ([FunctionValue]) -> FunctionValue) throws {
        try register(name, arity: arity) { values, _ in body(values) }
    }

    /// Registers `name` as `createFunction(_:arity:_:)` does, with what `prepare` makes of the
    /// arguments kept by SQLite beside argument `argument` while that argument stays the same
    /// (its auxiliary data: for a constant argument, made once per statement, not once per row, as
    /// Core Data compiles a MATCHES pattern); `body` gets it, or `nil` where `prepare` made none.
    /// See <https://www.sqlite.org/c3ref/get_auxdata.html>.
    public func createFunction<Prepared: AnyObject>(_ name: String, arity: Int32, preparing argument: Int32,
                                                    _ prepare: @escaping @Sendable ([FunctionValue]) -> Prepared?,
                                                    _ body: @escaping @Sendable ([FunctionValue], Prepared?) -> FunctionValue) throws {
        try register(name, arity: arity) { values, context in
            if let kept = sqlite3_get_auxdata(context, argument), let prepared = Unmanaged<AnyObject>.fromOpaque(kept).takeUnretainedValue() as? Prepared {
                return body(values, prepared)
            }
            let prepared = prepare(values)
            // SQLite may drop it at once (its destructor runs then): `prepared` holds it for this call.
            if let prepared {
                sqlite3_set_auxdata(context, argument, Unmanaged.passRetained(prepared as AnyObject).toOpaque()) { kept in
                    if let kept { Unmanaged<AnyObject>.fromOpaque(kept).release() }
                }
            }
            return body(values, prepared)
        }
    }

    private func register(_ name: String, arity: Int32, _ body: @escaping @Sendable ([FunctionValue], OpaquePointer) -> FunctionValue) throws {
        let box = Unmanaged.passRetained(FunctionBox(body)).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, name, arity, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, count, arguments in
                guard let context, let user = sqlite3_user_data(context) else { return }
                let function = Unmanaged<FunctionBox>.fromOpaque(user).takeUnretainedValue()
                let values = (0 ..< Int(count)).map { FunctionValue(arguments?[$0]) }
                switch function.body(values, context) {
                case .null: sqlite3_result_null(context)
                case let .integer(value): sqlite3_result_int64(context, value)
                case let .real(value): sqlite3_result_double(context, value)
                case let .text(value): sqlite3_result_text(context, value, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                case let .blob(bytes):
                    bytes.withUnsafeBytes { sqlite3_result_blob(context, $0.baseAddress, Int32($0.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self)) }
                }
            },
            nil, nil,
            { user in if let user { Unmanaged<FunctionBox>.fromOpaque(user).release() } })
        // On failure SQLite has called the destructor already.
        guard code == SQLITE_OK else { throw SQLiteError(code: code, message: "could not register the SQL function \(name)", sql: nil) }
    }
}

/// The Swift body of a registered function, kept alive by the connection until it is dropped.
private final class FunctionBox {
    let body: @Sendable ([FunctionValue], OpaquePointer) -> FunctionValue
    init(_ body: @escaping @Sendable ([FunctionValue], OpaquePointer) -> FunctionValue) { self.body = body }
}

extension FunctionValue {
    /// The value of an argument as SQLite holds it.
    init(_ value: OpaquePointer?) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT: self = .text(sqlite3_value_text(value).map { String(cString: $0) } ?? "")
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            self = .blob(count == 0 ? [] : Array(UnsafeRawBufferPointer(start: sqlite3_value_blob(value), count: count)))
        default: self = .null
        }
    }
}

extension Database {
    /// Registers the collating sequence `name` on this connection (as Core Data registers its
    /// `NSCollate…` sequences for sort descriptors' comparators), replacing one of that name:
    /// `order` says whether its first string sorts before (negative), with (zero) or after the second.
    /// See <https://www.sqlite.org/c3ref/create_collation.html>.
    public func createCollation(_ name: String, _ order: @escaping @Sendable (String, String) -> Int32) throws {
        let box = Unmanaged.passRetained(CollationBox(order)).toOpaque()
        let code = sqlite3_create_collation_v2(
            handle, name, SQLITE_UTF8, box,
            { user, leftCount, left, rightCount, right in
                guard let user else { return 0 }
                let collation = Unmanaged<CollationBox>.fromOpaque(user).takeUnretainedValue()
                func text(_ bytes: UnsafeRawPointer?, _ count: Int32) -> String {
                    guard let bytes, count > 0 else { return "" }
                    return String(decoding: UnsafeRawBufferPointer(start: bytes, count: Int(count)), as: UTF8.self)
                }
                return collation.order(text(left, leftCount), text(right, rightCount))
            },
            { user in if let user { Unmanaged<CollationBox>.fromOpaque(user).release() } })
        guard code == SQLITE_OK else {
            // Unlike a function's, a collation's destructor is not called when registering it fails.
            Unmanaged<CollationBox>.fromOpaque(box).release()
            throw SQLiteError(code: code, message: "could not register the collation \(name)", sql: nil)
        }
    }
}

/// The Swift order of a registered collation, kept alive by the connection until it is dropped.
private final class CollationBox {
    let order: @Sendable (String, String) -> Int32
    init(_ order: @escaping @Sendable (String, String) -> Int32) { self.order = order }
}
