import Workloads

/// How well one run's ratio intervals hold in another (`bench compare --ratios BASE NEW`): the
/// share of NEW's ratios inside BASE's 95 % intervals, and the clear verdicts NEW reverses. Two
/// back-to-back default runs compared so measure whether an interval covers a rerun, as a user
/// reading `1.35× [1.30–1.41]` takes it to.
public struct RatioCoverage: Equatable, Sendable {
    /// BASE's ratios with a 95 % interval that NEW also has a ratio for.
    public var compared = 0
    /// Those whose NEW ratio lies inside BASE's interval.
    public var inside = 0
    /// BASE's clear verdicts (faster or slower) that NEW has a verdict for.
    public var clear = 0
    /// Those NEW turns the other way (faster ↔ slower).
    public var reversed: [String] = []

    public init(base: CaseGrid, new: CaseGrid) {
        for caseName in base.cases {
            for strategy in base.strategies where strategy != base.baseline {
                guard let a = base.ratioInterval(caseName, strategy), a.hasInterval, let b = new.ratioInterval(caseName, strategy) else { continue }
                compared += 1
                if a.interval.contains(b.ratio) { inside += 1 }
                switch (a.verdict, b.verdict) {
                case (.faster, .slower), (.slower, .faster):
                    clear += 1
                    reversed.append("\(caseName) \(strategy)")
                case (.faster, _), (.slower, _): clear += 1
                default: break
                }
            }
        }
    }

    /// "coverage: 66 of 72 ratios of the new run (92 %) inside the base run's 95 % intervals; 0 of 40 clear verdicts reversed".
    public func render() -> String {
        let percent = compared > 0 ? String(format: " (%.0f %%)", Double(inside) / Double(compared) * 100) : ""
        var text = "coverage: \(inside) of \(compared) ratios of the new run\(percent) inside the base run's 95 % intervals; "
            + "\(reversed.count) of \(clear) clear verdicts (faster or slower) reversed"
        if !reversed.isEmpty { text += ": " + reversed.prefix(5).joined(separator: ", ") + (reversed.count > 5 ? ", …" : "") }
        return text + "\n"
    }
}
