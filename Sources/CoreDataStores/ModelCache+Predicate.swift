import Models

/// A partial fetch index's archived `NSPredicate` (`NSPartialIndexPredicate`), read into a
/// `FetchIndex.Condition` as far as Core Data's index SQL can hold it (`NSSQLIndexIntermediate`):
///
/// - `NSCompoundPredicate`: `NSCompoundPredicateType` (0 NOT, 1 AND, 2 OR), `NSSubpredicates`;
/// - `NSComparisonPredicate`: `NSLeftExpression`, `NSRightExpression`, `NSPredicateOperator`
///   (`NSOperatorType` 0 … 5: `<`, `<=`, `>`, `>=`, `==`, `!=`; `NSModifier` 0; no `NSOptions`);
/// - expressions: a key path (`NSKeyPathExpression`, a function expression whose argument holds
///   the key, or `NSKeyPath`) of one component, `SELF`, a constant (`NSConstantValue`: nil, a
///   number, a string, an `NSDate`'s `NS.time`).
///
/// Anything else throws `Untranslatable` with what it is, and the index is kept whole. The walk
/// is bounded: an archive whose predicate refers back to itself, nests deeper than
/// `depthLimit` or has more than `partLimit` parts is untranslatable, never followed further.
extension ModelCacheDecoder {
    static let depthLimit = 32
    static let partLimit = 1_000

    struct Untranslatable: Error { let why: String }

    func condition(_ uid: Int) throws -> FetchIndex.Condition {
        var parts = 0
        return try condition(uid, depth: 0, parts: &parts)
    }

    private func condition(_ uid: Int, depth: Int, parts: inout Int) throws -> FetchIndex.Condition {
        guard depth < Self.depthLimit else { throw Untranslatable(why: "nests deeper than \(Self.depthLimit) levels") }
        parts += 1
        guard parts <= Self.partLimit else { throw Untranslatable(why: "has more than \(Self.partLimit) parts") }
        let predicate = try archive.object(uid)
        switch predicate.className {
        case "NSCompoundPredicate":
            let members = try (archive.array(predicate, "NSSubpredicates") ?? []).map { try condition($0, depth: depth + 1, parts: &parts) }
            switch try archive.integer(predicate, "NSCompoundPredicateType") {
            case 0? where members.count == 1: return .not(members[0])
            case 1? where !members.isEmpty: return .and(members)
            case 2? where !members.isEmpty: return .or(members)
            default: throw Untranslatable(why: "is a compound predicate of an unknown kind")
            }
        case "NSComparisonPredicate":
            return try comparison(predicate)
        default:
            throw Untranslatable(why: "is an \(predicate.className)")
        }
    }

    private func comparison(_ predicate: KeyedArchive.Object) throws -> FetchIndex.Condition {
        guard let operatorUID = try archive.reference(predicate, "NSPredicateOperator") else { throw Untranslatable(why: "is a comparison without an operator") }
        let comparisonOperator = try archive.object(operatorUID)
        let type = try archive.integer(comparisonOperator, "NSOperatorType") ?? -1
        guard let comparison = FetchIndex.Comparison(rawValue: Int(type)) else { throw Untranslatable(why: "uses the comparison operator type \(type)") }
        guard (try archive.integer(comparisonOperator, "NSModifier") ?? 0) == 0 else { throw Untranslatable(why: "compares with ANY or ALL") }
        guard (try archive.integer(comparisonOperator, "NSOptions") ?? 0) == 0 else { throw Untranslatable(why: "compares strings with options") }
        guard let left = try archive.reference(predicate, "NSLeftExpression") else { throw Untranslatable(why: "is a comparison without a left side") }
        let right = try archive.reference(predicate, "NSRightExpression")
        guard case let .keyPath(property) = try expression(left) else {
            throw Untranslatable(why: "compares a constant on the left")
        }
        guard case let .constant(constant) = try right.map(expression) ?? .constant(.null) else {
            throw Untranslatable(why: "compares two key paths")
        }
        guard constant != .null || comparison == .equal || comparison == .notEqual else { throw Untranslatable(why: "orders against nil") }
        return .compare(property: property, comparison, constant)
    }

    private enum Side { case keyPath(String), constant(FetchIndex.Constant) }

    private func expression(_ uid: Int) throws -> Side {
        let expression = try archive.object(uid)
        switch expression.className {
        case "NSSelfExpression": return .keyPath(FetchIndex.primaryKeyName)
        case "NSConstantValueExpression":
            guard let value = try archive.reference(expression, "NSConstantValue") else { return .constant(.null) }
            return .constant(try constant(value))
        case "NSKeyPathExpression", "NSFunctionExpression":
            guard let path = try keyPath(of: expression) else {
                // A function expression is a key path only as `valueForKey:` or `valueForKeyPath:`.
                if let selector = try archive.string(expression, "NSSelectorName"), !["valueForKey:", "valueForKeyPath:"].contains(selector) {
                    throw Untranslatable(why: "uses the function \(selector)")
                }
                throw Untranslatable(why: "uses a function expression")
            }
            guard !path.contains(".") else { throw Untranslatable(why: "follows the key path '\(path)' (Core Data's index SQL has no joins)") }
            return .keyPath(path.caseInsensitiveCompare("self") == .orderedSame ? FetchIndex.primaryKeyName : path)
        default:
            throw Untranslatable(why: "uses an \(expression.className)")
        }
    }

    /// A constant as `NSSQLConstantValueIntermediate` accepts one in an index: a number, a string, a date.
    private func constant(_ uid: Int) throws -> FetchIndex.Constant {
        switch try archive.entry(uid) {
        case let .integer(value): return .integer(value)
        case let .bool(value): return .integer(value ? 1 : 0)
        case let .real(value):
            guard value.isFinite else { throw Untranslatable(why: "holds the number \(value), which SQL cannot write") }
            return .real(value)
        case let .string(text): return .text(text)
        case .dictionary:
            let object = try archive.object(uid)
            switch object.className {
            case "NSNull": return .null
            case "NSString", "NSMutableString": return .text(try archive.string(uid, what: "a constant"))
            case "NSDate":
                guard case let .real(seconds)? = try archive.field(object, "NS.time"), seconds.isFinite else { throw Untranslatable(why: "holds a date without its time") }
                return .date(seconds)
            default: throw Untranslatable(why: "holds a constant of class \(object.className)")
            }
        default: throw Untranslatable(why: "holds a constant of a kind Core Data cannot write into an index")
        }
    }
}
