import Foundation
import Workloads

/// The run's answer in three lines, before any table: the cases where the baseline (Core Data's
/// one table) wins, those where it loses, and the rest, each with how much; a fourth for an app's
/// fetch mix (`CaseGrid+Mix.swift`). A difference counts
/// when it is clear and large enough to matter: the ratio's 95 % interval excludes 1 and the ratio
/// lies beyond `margin` (±10 %, the README's "clear verdict").
extension CaseGrid {
    /// What a ratio says for the answer.
    public enum Difference: Equatable, Sendable {
        /// Clearly faster than the baseline by more than the margin.
        case faster
        /// Clearly slower than the baseline by more than the margin.
        case slower
        /// Within the margin, not clearly different, or too uncertain to call.
        case even
    }

    /// The cases sorted by what their ratios to the baseline say.
    public struct Answer {
        /// A case and every other strategy's ratio to the baseline in it.
        public struct Case {
            public var name: String
            public var ratios: [(strategy: String, ratio: RatioInterval)]
        }

        /// How far from 1× a clear ratio must be to count: 10 %.
        public static let margin = 0.10

        public var baseline: String
        /// No strategy clearly faster, at least one clearly slower.
        public var wins: [Case] = []
        /// At least one strategy clearly faster.
        public var losses: [Case] = []
        /// Every strategy within the margin, not clearly different, or too uncertain to call.
        public var rest: [Case] = []
        /// The app's fetch mix, when the run measured one (`--fetches`).
        public var mix: Mix?
        /// A replayed log's session line, when the run timed one (`bench replay`).
        public var session: String?

        /// How many cases a line names before "and N more".
        static let named = 4

        /// What `ratio` says: faster or slower only when its interval excludes 1 and it lies beyond the margin.
        public static func difference(_ ratio: RatioInterval) -> Difference {
            switch ratio.verdict {
            case .faster where ratio.ratio < 1 / (1 + margin): .faster
            case .slower where ratio.ratio > 1 + margin: .slower
            default: .even
            }
        }

        /// The three lines, in Markdown (strategy names as code spans), then the mix's.
        public var lines: [String] {
            let total = wins.count + losses.count + rest.count
            return [winsLine(of: total), lossesLine(of: total), restLine(of: total)] + [mix?.line, session].compactMap { $0 }.filter { !$0.isEmpty }
        }

        private func winsLine(of total: Int) -> String {
            guard !wins.isEmpty else { return "`\(baseline)` wins no case: in none is another strategy clearly slower while none is clearly faster." }
            // The biggest wins first: by the most another strategy takes.
            let sorted = wins.sorted { Self.extreme($0, max: true).ratio > Self.extreme($1, max: true).ratio }
            let cases = sorted.prefix(Self.named).map { found in
                let worst = Self.extreme(found, max: true)
                return "\(found.name) (`\(worst.strategy)` \(CaseGrid.ratioText(worst.ratio)))"
            }
            return "`\(baseline)` wins \(wins.count) of \(total) cases, no strategy clearly faster and some clearly slower, "
                + "up to \(CaseGrid.ratioText(Self.extreme(sorted[0], max: true).ratio)) as long: " + cases.joined(separator: ", ") + Self.more(wins.count) + "."
        }

        private func lossesLine(of total: Int) -> String {
            guard !losses.isEmpty else { return "It loses no case: no strategy is clearly faster than `\(baseline)` anywhere." }
            let sorted = losses.sorted { Self.extreme($0, max: false).ratio < Self.extreme($1, max: false).ratio }
            let cases = sorted.prefix(Self.named).map { found in
                let best = Self.extreme(found, max: false)
                return "\(found.name) (`\(best.strategy)` \(CaseGrid.ratioText(best.ratio)))"
            }
            return "It loses \(losses.count) of \(total), a strategy clearly faster, down to \(CaseGrid.ratioText(Self.extreme(sorted[0], max: false).ratio)) of its time: "
                + cases.joined(separator: ", ") + Self.more(losses.count) + "."
        }

        private func restLine(of total: Int) -> String {
            guard !rest.isEmpty else { return "No case is even: each is a clear win or a clear loss." }
            let ratios = rest.flatMap { $0.ratios }
            let uncertain = ratios.filter { $0.ratio.isUncertain }.count
            let names = rest.prefix(Self.named).map(\.name).joined(separator: ", ") + Self.more(rest.count)
            let which = rest.count == total ? "all \(total) cases" : "the other \(rest.count) of \(total)"
            return "Even in \(which), every strategy within \(Int(Self.margin * 100)) % or not clearly different "
                + "(ratios \(Self.range(ratios.map(\.ratio.ratio)))\(uncertain > 0 ? ", \(uncertain) too uncertain to call" : "")): \(names)."
        }

        /// The case's largest (`max`) or smallest ratio and its strategy.
        private static func extreme(_ found: Case, max: Bool) -> (strategy: String, ratio: Double) {
            let pairs = found.ratios.map { (strategy: $0.strategy, ratio: $0.ratio.ratio) }
            return (max ? pairs.max { $0.ratio < $1.ratio } : pairs.min { $0.ratio < $1.ratio }) ?? ("", 1)
        }

        /// 0.90–1.11×, or 1.50× when the range is one value.
        static func range(_ values: [Double]) -> String {
            guard let low = values.min(), let high = values.max() else { return "–" }
            let lowText = CaseGrid.ratioText(low), highText = CaseGrid.ratioText(high)
            return lowText == highText ? lowText : String(lowText.dropLast()) + "–" + highText
        }

        private static func more(_ count: Int) -> String { count > named ? " and \(count - named) more" : "" }
    }

    /// The cases with at least one ratio to the baseline, sorted into wins, losses and the rest.
    public func answer() -> Answer {
        var answer = Answer(baseline: baseline, mix: mix())
        answer.session = sessionLine()
        for caseName in cases {
            let ratios = strategies.compactMap { strategy in ratioInterval(caseName, strategy).map { (strategy: strategy, ratio: $0) } }
            guard !ratios.isEmpty else { continue }
            let found = Answer.Case(name: caseName, ratios: ratios)
            let differences = ratios.map { Answer.difference($0.ratio) }
            if differences.contains(.faster) {
                answer.losses.append(found)
            } else if differences.contains(.slower) {
                answer.wins.append(found)
            } else {
                answer.rest.append(found)
            }
        }
        return answer
    }
}
