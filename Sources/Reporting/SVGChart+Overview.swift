import Foundation
import Workloads

extension SVGChart {
    /// One cell of the overview: a strategy's ratio to the baseline in one case.
    public struct OverviewCell: Sendable {
        public var ratio: RatioInterval
        public init(ratio: RatioInterval) { self.ratio = ratio }
    }

    /// The decades either side of 1× the overview's colours span: 100× slower is full red, 0.01×
    /// (100× faster) full green; beyond that the colour stays full.
    static let overviewDecades = 2.0

    /// Every case (down) × strategy (across) ratio to the baseline as one grid of coloured cells on
    /// a log colour scale (red: slower than the baseline, green: faster, pale: about the same),
    /// each holding its ratio; a difference that counts (`CaseGrid.Answer.difference`) is outlined
    /// and bold, a ratio too uncertain to call is marked `?`. A colour bar below gives the scale.
    public static func overview(title: String, cases: [String], strategies: [String], cells: [String: [String: OverviewCell]]) -> String {
        // Rows as low as keep a default run's cases (24) in the first screen of a 1280 × 800 window.
        let rowHeight = cases.count > 30 ? 16.0 : cases.count > 20 ? 18.0 : 20.0, columnWidth = 112.0, top = 56.0, legendHeight = 48.0
        let longest = cases.map(\.count).max() ?? 4
        let left = min(320, max(120, Double(longest) * 6.6 + 16))
        let width = left + columnWidth * Double(strategies.count) + 12
        let height = top + rowHeight * Double(cases.count) + legendHeight
        var svg = open(width: width, height: height, title: title)
        svg += text(title, x: 8, y: 18, attributes: #"class="title""#)
        for (column, strategy) in strategies.enumerated() {
            svg += text(strategy, x: left + columnWidth * (Double(column) + 0.5), y: top - 10, attributes: #"class="label" text-anchor="middle""#)
        }
        for (row, caseName) in cases.enumerated() {
            let y = top + rowHeight * Double(row)
            svg += text(caseName, x: left - 8, y: y + rowHeight / 2 + 4, attributes: #"class="label" text-anchor="end""#)
            for (column, strategy) in strategies.enumerated() {
                let x = left + columnWidth * Double(column)
                guard let cell = cells[caseName]?[strategy] else {
                    svg += text("–", x: x + columnWidth / 2, y: y + rowHeight / 2 + 4, attributes: #"class="note" text-anchor="middle""#)
                    continue
                }
                svg += overviewCell(cell, strategy: strategy, caseName: caseName, x: x, y: y, width: columnWidth, height: rowHeight)
            }
        }
        svg += overviewLegend(x: left, y: top + rowHeight * Double(cases.count) + 14, width: min(360, columnWidth * Double(max(strategies.count, 3))))
        return svg + "</svg>"
    }

    private static func overviewCell(_ cell: OverviewCell, strategy: String, caseName: String, x: Double, y: Double, width: Double, height: Double) -> String {
        let ratio = cell.ratio
        let clear = CaseGrid.Answer.difference(ratio) != .even
        let shade = overviewColor(ratio.ratio)
        var svg = "<g><title>\(escape("\(caseName), \(strategy): \(ratio.text), \(ratio.verdictText)"))</title>"
        svg += String(format: #"<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%@"%@/>"#, x + 1, y + 1, width - 2, height - 2, shade.fill,
                      clear ? ##" stroke="#1d2330" stroke-width="1.2""## : "")
        let label = CaseGrid.ratioText(ratio.ratio) + (ratio.isUncertain ? " ?" : "")
        let weight = clear ? #" font-weight="700""# : ""
        svg += String(format: #"<text x="%.1f" y="%.1f" class="cell" text-anchor="middle" fill="%@"%@>%@</text>"#,
                      x + width / 2, y + height / 2 + 4, shade.ink, weight, escape(label))
        return svg + "</g>"
    }

    /// The colour of a ratio on the log scale, and a text colour that reads on it.
    static func overviewColor(_ ratio: Double) -> (fill: String, ink: String) {
        let position = ratio > 0 && ratio.isFinite ? max(-1, min(1, log10(ratio) / overviewDecades)) : (ratio > 0 ? 1 : -1)
        let pale = (247.0, 247.0, 247.0), slower = (190.0, 30.0, 45.0), faster = (26.0, 130.0, 70.0)
        let end = position >= 0 ? slower : faster
        let t = pow(abs(position), 0.7)
        func mix(_ a: Double, _ b: Double) -> Int { Int((a + (b - a) * t).rounded()) }
        let fill = String(format: "#%02x%02x%02x", mix(pale.0, end.0), mix(pale.1, end.1), mix(pale.2, end.2))
        return (fill, t > 0.55 ? "#ffffff" : "#1d2330")
    }

    private static func overviewLegend(x: Double, y: Double, width: Double) -> String {
        let steps = 40
        var svg = ""
        for step in 0 ..< steps {
            let position = -1 + 2 * (Double(step) + 0.5) / Double(steps)
            let ratio = pow(10, position * overviewDecades)
            svg += String(format: #"<rect x="%.1f" y="%.1f" width="%.2f" height="10" fill="%@"/>"#,
                          x + width * Double(step) / Double(steps), y, width / Double(steps) + 0.3, overviewColor(ratio).fill)
        }
        for tick in [0.01, 0.1, 1, 10, 100] {
            let tx = x + width * (log10(tick) / overviewDecades + 1) / 2
            svg += line(tx, y + 10, tx, y + 14, attributes: #"class="axis""#)
            svg += text(String(format: "%g×", tick), x: tx, y: y + 26, attributes: #"class="tick" text-anchor="middle""#)
        }
        svg += text("faster", x: x - 6, y: y + 9, attributes: #"class="tick" text-anchor="end""#)
        svg += text("slower", x: x + width + 6, y: y + 9, attributes: #"class="tick""#)
        return svg
    }
}
