/// How many destinations the generating side of a to-many relationship links each object to:
/// uniformly `min ... max`. In JSON: `"count": { "min": 0, "max": 5 }`.
public struct FanOut: Codable, Equatable, Sendable {
    public var min: Int
    public var max: Int
    public init(min: Int, max: Int) { self.min = min; self.max = max }
    public static let `default` = FanOut(min: 0, max: 5)

    enum CodingKeys: String, CodingKey { case min, max }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        min = try c.decodeWholeNumber(forKey: .min)
        max = try c.decodeWholeNumber(forKey: .max)
    }
}
