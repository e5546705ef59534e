import Foundation

/// Charts as inline SVG text, for the HTML report: no script, no external resource. Times are on
/// log axes (medians of different workloads span six decades); colours come from the caller.
public enum SVGChart {
    /// One bar of a bar chart: a strategy's median with its interval.
    public struct Bar: Sendable {
        public var label: String
        public var median: Double
        public var interval: ClosedRange<Double>
        public var note: String
        public var color: String
        public var noisy: Bool
        public init(label: String, median: Double, interval: ClosedRange<Double>, note: String, color: String, noisy: Bool) {
            self.label = label; self.median = median; self.interval = interval; self.note = note; self.color = color; self.noisy = noisy
        }
    }

    /// One line of a line chart: points (x, y) with an optional interval of y.
    public struct Series: Sendable {
        public var label: String
        public var color: String
        public var points: [(x: Double, y: Double, interval: ClosedRange<Double>?)]
        public init(label: String, color: String, points: [(x: Double, y: Double, interval: ClosedRange<Double>?)]) {
            self.label = label; self.color = color; self.points = points
        }
    }

    /// Horizontal bars of medians on a log time axis, whiskers for their intervals, each bar's
    /// label on the left and its note (median, ratio) on the right.
    public static func bars(title: String, _ bars: [Bar], width: Int = 600) -> String {
        let left = 128.0, right = 136.0, top = 30.0, rowHeight = 24.0, axisHeight = 30.0
        let height = top + rowHeight * Double(bars.count) + axisHeight
        let plotWidth = Double(width) - left - right
        let scale = LogScale(values: bars.flatMap { [$0.median, $0.interval.lowerBound, $0.interval.upperBound] }, from: left, to: left + plotWidth)
        var svg = open(width: Double(width), height: height, title: title)
        svg += text(title, x: 8, y: 18, attributes: #"class="title""#)
        for tick in scale.ticks {
            let x = scale.position(tick.value)
            svg += line(x, top - 4, x, height - axisHeight + 4, attributes: tick.major ? #"class="grid""# : #"class="grid minor""#)
            if tick.major { svg += text(durationTick(tick.value), x: x, y: height - axisHeight + 18, attributes: #"class="tick" text-anchor="middle""#) }
        }
        for (index, bar) in bars.enumerated() {
            let y = top + rowHeight * Double(index)
            let end = scale.position(bar.median)
            svg += "<g><title>\(escape("\(bar.label): \(bar.note), interval \(CaseGrid.intervalText(bar.interval))\(bar.noisy ? ", noisy" : "")"))</title>"
            svg += text(bar.label, x: left - 6, y: y + rowHeight / 2 + 4, attributes: #"class="label" text-anchor="end""#)
            svg += String(format: #"<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%@" rx="2"/>"#,
                          left, y + 4, max(1, end - left), rowHeight - 8, bar.color)
            let low = scale.position(bar.interval.lowerBound), high = scale.position(bar.interval.upperBound), middle = y + rowHeight / 2
            svg += line(low, middle, high, middle, attributes: #"class="whisker""#)
            svg += line(low, middle - 5, low, middle + 5, attributes: #"class="whisker""#)
            svg += line(high, middle - 5, high, middle + 5, attributes: #"class="whisker""#)
            svg += String(format: #"<text x="%.1f" y="%.1f" class="note">%@%@</text>"#, left + plotWidth + 8, middle + 4, escape(bar.note),
                          bar.noisy ? #" <tspan class="noisy">!</tspan>"# : "")
            svg += "</g>"
        }
        svg += line(left, height - axisHeight + 4, left + plotWidth, height - axisHeight + 4, attributes: #"class="axis""#)
        return svg + "</svg>"
    }

    /// Lines of y against x, one per series, with whiskers where a point has an interval. The y
    /// axis is logarithmic; x is logarithmic when `logX`. `reference` draws a dashed line at that y.
    public static func lines(title: String, xLabel: String, yLabel: String, _ series: [Series], logX: Bool,
                             yTick: (Double) -> String, reference: Double? = nil, width: Int = 600, height: Int = 320) -> String {
        let left = 74.0, right = 16.0, top = 30.0, bottom = 44.0
        let xs = Array(Set(series.flatMap { $0.points.map(\.x) })).sorted()
        var ys = series.flatMap { $0.points.flatMap { [$0.y] + ($0.interval.map { [$0.lowerBound, $0.upperBound] } ?? []) } }
        if let reference { ys.append(reference) }
        let yScale = LogScale(values: ys, from: Double(height) - bottom, to: top)
        let xPosition: (Double) -> Double
        let plotLeft = left + 12, plotRight = Double(width) - right - 12
        if logX, let low = xs.first, let high = xs.last, low > 0, high > low {
            xPosition = { plotLeft + (log10($0) - log10(low)) / (log10(high) - log10(low)) * (plotRight - plotLeft) }
        } else if let low = xs.first, let high = xs.last, high > low {
            xPosition = { plotLeft + ($0 - low) / (high - low) * (plotRight - plotLeft) }
        } else {
            xPosition = { _ in (plotLeft + plotRight) / 2 }
        }
        var svg = open(width: Double(width), height: Double(height), title: title)
        svg += text(title, x: 8, y: 18, attributes: #"class="title""#)
        for tick in yScale.ticks(labelMultiplesBelow: 2.5) {
            let y = yScale.position(tick.value)
            svg += line(left, y, Double(width) - right, y, attributes: tick.major ? #"class="grid""# : #"class="grid minor""#)
            if tick.major { svg += text(yTick(tick.value), x: left - 6, y: y + 4, attributes: #"class="tick" text-anchor="end""#) }
        }
        for x in xs {
            let position = xPosition(x)
            svg += line(position, top, position, Double(height) - bottom, attributes: #"class="grid minor""#)
            svg += text(number(x), x: position, y: Double(height) - bottom + 16, attributes: #"class="tick" text-anchor="middle""#)
        }
        svg += text(xLabel, x: (left + Double(width) - right) / 2, y: Double(height) - 8, attributes: #"class="axis-label" text-anchor="middle""#)
        svg += text(yLabel, x: 14, y: (top + Double(height) - bottom) / 2,
                    attributes: String(format: #"class="axis-label" text-anchor="middle" transform="rotate(-90 14 %.1f)""#, (top + Double(height) - bottom) / 2))
        if let reference {
            let y = yScale.position(reference)
            svg += line(left, y, Double(width) - right, y, attributes: #"class="reference""#)
        }
        for entry in series where !entry.points.isEmpty {
            let points = entry.points.sorted { $0.x < $1.x }
            svg += "<g><title>\(escape(entry.label))</title>"
            let path = points.map { String(format: "%.1f,%.1f", xPosition($0.x), yScale.position($0.y)) }.joined(separator: " ")
            svg += #"<polyline fill="none" stroke="\#(entry.color)" stroke-width="2" points="\#(path)"/>"#
            for point in points {
                let x = xPosition(point.x)
                if let interval = point.interval {
                    svg += line(x, yScale.position(interval.lowerBound), x, yScale.position(interval.upperBound), attributes: #"stroke="\#(entry.color)" stroke-width="1""#)
                }
                svg += String(format: #"<circle cx="%.1f" cy="%.1f" r="3" fill="%@"/>"#, x, yScale.position(point.y), entry.color)
            }
            svg += "</g>"
        }
        svg += line(left, Double(height) - bottom, Double(width) - right, Double(height) - bottom, attributes: #"class="axis""#)
        svg += line(left, top, left, Double(height) - bottom, attributes: #"class="axis""#)
        return svg + "</svg>"
    }

    /// A base-10 log scale over positive values, padded to whole decades (or halves of them).
    struct LogScale {
        let low: Double, high: Double, from: Double, to: Double

        init(values: [Double], from: Double, to: Double) {
            let positive = values.filter { $0 > 0 && $0.isFinite }
            var low = log10(positive.min() ?? 1), high = log10(positive.max() ?? 10)
            // Pad a little so that no mark sits on the frame; at least half a decade in all.
            let padding = max(0.05, (0.5 - (high - low)) / 2)
            low -= padding
            high += padding
            self.low = low; self.high = high; self.from = from; self.to = to
        }

        func position(_ value: Double) -> Double {
            let clamped = max(pow(10, low), value)
            return from + (log10(clamped) - low) / (high - low) * (to - from)
        }

        /// Powers of ten (major); 2× and 5× of them too (major, so labelled, when the axis spans
        /// under 1.3 decades: more labels would run into each other).
        var ticks: [(value: Double, major: Bool)] { ticks(labelMultiplesBelow: 1.3) }

        /// - parameter span: label the 2× and 5× ticks when the axis spans fewer decades than this.
        func ticks(labelMultiplesBelow span: Double) -> [(value: Double, major: Bool)] {
            let limit = span
            var ticks: [(Double, Bool)] = []
            for decade in Int(floor(low)) ... Int(ceil(high)) {
                for multiple in [1.0, 2, 5] {
                    let value = multiple * pow(10, Double(decade))
                    let exponent = log10(value)
                    guard exponent >= low, exponent <= high else { continue }
                    if multiple == 1 { ticks.append((value, true)) } else { ticks.append((value, high - low < limit)) }
                }
            }
            return ticks
        }
    }

    static func open(width: Double, height: Double, title: String) -> String {
        String(format: #"<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 %.0f %.0f" width="%.0f" height="%.0f" role="img" aria-label="%@">"#,
               width, height, width, height, escape(title))
    }

    static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, attributes: String) -> String {
        String(format: #"<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" %@/>"#, x1, y1, x2, y2, attributes)
    }

    static func text(_ content: String, x: Double, y: Double, attributes: String) -> String {
        String(format: #"<text x="%.1f" y="%.1f" %@>%@</text>"#, x, y, attributes, escape(content))
    }

    /// A tick's duration, short: 500 µs, 2 ms, 10 s.
    public static func durationTick(_ nanoseconds: Double) -> String {
        let (value, unit): (Double, String) = switch nanoseconds {
        case ..<1_000: (nanoseconds, "ns")
        case ..<1_000_000: (nanoseconds / 1_000, "µs")
        case ..<1_000_000_000: (nanoseconds / 1_000_000, "ms")
        default: (nanoseconds / 1_000_000_000, "s")
        }
        return String(format: "%g %@", (value * 1000).rounded() / 1000, unit)
    }

    /// 8, 0.5, 1e+06 → "8", "0.5", "1000000"
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%g", value)
    }

    /// Text for HTML or SVG: &, <, >, " escaped.
    public static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
