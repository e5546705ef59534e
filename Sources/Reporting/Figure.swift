import Foundation

/// Numbers as the reports print them, in a bounded width whatever a results file holds: fixed
/// point where that is short, else three significant digits with an exponent (a ratio of 1e-300
/// read from an edited file prints as `1e-300`, not as 300 zeros).
enum Figure {
    /// `value` with `decimals` decimals when it lies in [0.001, 1e6) (or is 0), else `%.3g`;
    /// infinity as `∞`, NaN as `–`.
    static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "–" : value < 0 ? "-∞" : "∞" }
        let magnitude = abs(value)
        guard magnitude == 0 || (magnitude >= 0.001 && magnitude < 1e6) else { return String(format: "%.3g", value) }
        return String(format: "%.\(decimals)f", value)
    }
}
