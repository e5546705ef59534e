import Foundation
import Generation
import Models
import SQLite
import StoreFiles
import Strategies

/// A run that could not produce honest numbers.
public enum BenchmarkFailure: Error, CustomStringConvertible, Equatable {
    /// Two strategies gave different answers to the same workload.
    case disagreement(caseName: String, first: String, firstDigest: String, firstRows: Int,
                      second: String, secondDigest: String, secondRows: Int)
    /// One strategy's answer changed between repetitions.
    case unstableAnswer(strategy: String, caseName: String)

    public var description: String {
        switch self {
        case let .disagreement(caseName, first, firstDigest, firstRows, second, secondDigest, secondRows):
            "strategies disagree on \(caseName): \(first) answered \(firstRows) rows (digest \(firstDigest)), "
                + "\(second) answered \(secondRows) rows (digest \(secondDigest)); the run stopped because the numbers would not compare like with like"
        case let .unstableAnswer(strategy, caseName):
            "\(strategy) gave different answers to \(caseName) in different repetitions"
        }
    }
}
