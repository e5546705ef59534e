@testable import Reporting
import XCTest

/// U and p against SciPy 1.17.1. Every reference was computed with
///     python3 -c "from scipy.stats import mannwhitneyu; print(mannwhitneyu(x, y, alternative='two-sided', method=M))"
/// with M = 'exact' for the exact cases, and M = 'asymptotic' (use_continuity=True, SciPy's default)
/// for the cases with ties or with more than 20 values on a side; the numbers are pasted as constants.
final class MannWhitneyTests: XCTestCase {
    func check(_ x: [Double], _ y: [Double], u: Double, p: Double, _ method: MannWhitney.Method,
               file: StaticString = #filePath, line: UInt = #line) throws {
        let test = try XCTUnwrap(MannWhitney(x, y), file: file, line: line)
        XCTAssertEqual(test.u, u, file: file, line: line)
        XCTAssertEqual(test.p, p, accuracy: 1e-12 + 1e-9 * p, file: file, line: line)
        XCTAssertEqual(test.method, method, file: file, line: line)
        // Swapping the samples gives the other U (m·n − U) and the same two-sided p.
        let swapped = try XCTUnwrap(MannWhitney(y, x), file: file, line: line)
        XCTAssertEqual(swapped.u, Double(x.count * y.count) - u, file: file, line: line)
        XCTAssertEqual(swapped.p, test.p, accuracy: 1e-15, file: file, line: line)
    }

    /// Without ties and at most 20 values a side: the exact null distribution (method='exact').
    func testExactPValuesMatchSciPy() throws {
        try check([1.1, 2.3, 3.5, 4.2, 8.0], [5.0, 6.1, 7.7, 0.4], u: 8, p: 0.7301587301587302, .exact)
        try check([110, 111, 112], [100, 101, 102], u: 9, p: 0.1, .exact) // 2 of C(6, 3) = 20 orders
        try check((20 ..< 28).map(Double.init), (0 ..< 8).map(Double.init), u: 64, p: 0.0001554001554001554, .exact) // 2 / 12,870
        try check([3.2, 7.9, 11.4, 15.0, 18.8], [1.0, 2.5, 4.1, 5.6, 6.3, 8.8, 9.4, 10.2, 12.7, 13.3, 14.1, 16.6],
                  u: 38, p: 0.4421460892049127, .exact)
        let twenty: [Double] = [12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 48, 51, 54, 57, 60, 63, 66, 69]
        try check(twenty, Array(twenty.map { $0 - 1.5 }.dropLast()) + [80.5], u: 209, p: 0.820148096319688, .exact)
        try check(twenty, twenty.map { $0 - 9.5 }, u: 264, p: 0.0859140199856938, .exact)
        try check([1], [2], u: 0, p: 1, .exact)
    }

    /// With ties, whatever the size, and without ties beyond 20 values a side: the normal
    /// approximation with tie and continuity corrections (method='asymptotic').
    func testTiesAndLargeSamplesUseTheNormalApproximation() throws {
        try check([1, 2, 2, 3, 4], [2, 3, 3, 5, 6, 6], u: 6, p: 0.1130499788563229, .normal)
        try check([10, 10, 11, 11], [1, 1, 2, 2], u: 16, p: 0.026518721959430728, .normal)
        try check([5, 5, 5], [5, 5, 5, 5], u: 6, p: 1, .normal) // σ = 0: no evidence of anything
        try check((0 ..< 21).map { Double($0) * 1.7 }, (0 ..< 25).map { Double($0) * 1.3 + 4.1 }, u: 223, p: 0.38972902333447423, .normal)
        try check((0 ..< 30).map { Double($0 % 7) }, (0 ..< 30).map { Double($0 % 9 + 1) }, u: 272, p: 0.008236698339101773, .normal)
        try check((0 ..< 21).map(Double.init), [3.5, 17.5, 30.5], u: 20, p: 0.3369753405302497, .normal)
        XCTAssertTrue(MannWhitney([1, 2, 2], [3])!.hasTies)
        XCTAssertFalse(MannWhitney([1, 2], [3])!.hasTies)
    }

    /// The counts of the exact distribution are the Gaussian binomial coefficients: they add up to
    /// C(m + n, m) and are symmetric.
    func testTheNullCountsAddUpToEveryOrder() {
        XCTAssertEqual(MannWhitney.nullCounts(2, 2), [1, 1, 2, 1, 1])
        XCTAssertEqual(MannWhitney.nullCounts(3, 0), [1])
        let counts = MannWhitney.nullCounts(20, 20)
        XCTAssertEqual(counts.count, 401)
        XCTAssertEqual(counts.reduce(0, +), 137_846_528_820) // C(40, 20)
        XCTAssertEqual(counts, counts.reversed())
    }

    func testNoTestWithoutValues() {
        XCTAssertNil(MannWhitney([], [1]))
        XCTAssertNil(MannWhitney([1], [.nan]))
        XCTAssertNil(MannWhitney([.infinity], [1]))
    }
}
