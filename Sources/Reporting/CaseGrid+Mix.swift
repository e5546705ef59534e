import Foundation
import Workloads

/// An app's fetch mix (`--fetches`): each strategy's time for the whole mix, every fetch weighted
/// as the app issues it. One fetch takes a case's median over its draws (`mix_fetches`); the mix
/// sums weight × that over its fetches, and its interval sums the ends of theirs (the widest the
/// medians' own intervals allow, whatever their correlation). A strategy's mix is clearly faster
/// or slower than the baseline's only when the two intervals do not overlap.
extension CaseGrid {
    public struct Mix: Equatable {
        public struct Total: Equatable {
            public var strategy: String
            public var nanoseconds: Double
            public var interval: ClosedRange<Double>
        }

        /// The fetches in the mix, and the saves (cases of variant `save`, a replayed log's).
        public var fetches: Int
        public var saves = 0
        /// Each strategy that ran every fetch of the mix, the baseline first.
        public var totals: [Total]
        public var baseline: String

        /// `clearly faster`, `clearly slower`, or `not clearly different` from the baseline's mix.
        func verdict(_ total: Total) -> String {
            guard let reference = totals.first(where: { $0.strategy == baseline }) else { return "" }
            if total.interval.upperBound < reference.interval.lowerBound { return "clearly faster" }
            if total.interval.lowerBound > reference.interval.upperBound { return "clearly slower" }
            return "not clearly different"
        }

        /// One line, in Markdown: the baseline's time for the mix, then each other strategy's as a multiple of it.
        public var line: String {
            guard let reference = totals.first(where: { $0.strategy == baseline }), reference.nanoseconds > 0 else { return "" }
            let others = totals.filter { $0.strategy != baseline }.sorted { $0.nanoseconds < $1.nanoseconds }.map { total in
                "`\(total.strategy)` \(CaseGrid.ratioText(total.nanoseconds / reference.nanoseconds)) (\(verdict(total)))"
            }
            let counted = [fetches > 0 || saves == 0 ? "\(fetches) fetch\(fetches == 1 ? "" : "es")" : nil, saves > 0 ? "\(saves) save\(saves == 1 ? "" : "s")" : nil]
            return "Your mix (\(counted.compactMap { $0 }.joined(separator: " and ")), each weighted by how often the app makes it) takes `\(baseline)` "
                + "\(ConsoleTable.duration(reference.nanoseconds)) [\(CaseGrid.intervalText(reference.interval))]; " + others.joined(separator: ", ") + "."
        }
    }

    /// The cases that time an app's own fetch or save (the CSV's `request`), in the file's order:
    /// each with what it asks and its weight in the app's mix, if any.
    public func requests() -> [(caseName: String, request: String, weight: String?)] {
        cases.compactMap { caseName in
            guard let fields = (row(caseName, baseline) ?? strategies.lazy.compactMap({ row(caseName, $0) }).first)?.fields,
                let request = fields["request"], !request.isEmpty
            else { return nil }
            return (caseName, request, fields["mix_weight"].flatMap { $0.isEmpty ? nil : $0 })
        }
    }

    /// The case `bench replay` names `session` (the log's fetches and saves in its order): the
    /// baseline's median and each other strategy's ratio with its interval and verdict, in one
    /// Markdown line; nil without it.
    public func sessionLine() -> String? {
        let session = Workload.sessionName
        guard cases.contains(session), let reference = row(session, baseline) else { return nil }
        let others = strategies.filter { $0 != baseline }.compactMap { strategy in
            ratioInterval(session, strategy).map { (strategy, $0) }
        }.sorted { $0.1.ratio < $1.1.ratio }.map { strategy, interval in
            let verdict = switch interval.verdictName {
            case "faster": "clearly faster"
            case "slower": "clearly slower"
            case "same": "not clearly different"
            default: "too uncertain to call"
            }
            return "`\(strategy)` \(interval.text) (\(verdict))"
        }
        return "The session (the log's fetches and saves one after another, in its order) takes `\(baseline)` "
            + "\(ConsoleTable.duration(reference.median)) [\(CaseGrid.intervalCell(reference))]" + (others.isEmpty ? "." : "; " + others.joined(separator: ", ") + ".")
    }

    /// The mix of the cases with a `mix_weight`, or nil when there are none or the baseline did not run them all.
    public func mix() -> Mix? {
        let weighted = cases.compactMap { caseName -> (name: String, weight: Double, fetches: Double)? in
            guard let fields = row(caseName, baseline)?.fields, let weight = fields["mix_weight"].flatMap(Double.init),
                let fetches = fields["mix_fetches"].flatMap(Double.init), fetches > 0
            else { return nil }
            return (caseName, weight, fetches)
        }
        guard !weighted.isEmpty else { return nil }
        let totals = strategies.compactMap { strategy -> Mix.Total? in
            var (median, low, high) = (0.0, 0.0, 0.0)
            for share in weighted {
                guard let measured = row(share.name, strategy) else { return nil }
                median += share.weight * measured.median / share.fetches
                low += share.weight * measured.interval.lowerBound / share.fetches
                high += share.weight * measured.interval.upperBound / share.fetches
            }
            return Mix.Total(strategy: strategy, nanoseconds: median, interval: low...max(low, high))
        }
        guard totals.first?.strategy == baseline else { return nil }
        let saves = weighted.filter { $0.name.hasSuffix("/" + Workload.saveVariant) }.count
        return Mix(fetches: weighted.count - saves, saves: saves, totals: totals, baseline: baseline)
    }
}
