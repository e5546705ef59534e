import Foundation

/// Links and headings of a Markdown page, read as GitHub renders them (outside code).
enum MarkdownLinks {
    /// The lines outside fenced code blocks, with inline code removed.
    static func prose(_ text: String) -> [String] {
        var fenced = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line in
            if line.hasPrefix("```") { fenced.toggle(); return nil }
            guard !fenced else { return nil }
            return line.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined()
        }
    }

    /// The target of every `[text](target)` and `![alt](target)`.
    static func targets(in text: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        return prose(text).flatMap { line in
            pattern.matches(in: line, range: NSRange(line.startIndex..., in: line)).compactMap { match in
                Range(match.range(at: 1), in: line).map { String(line[$0]) }
            }
        }
    }

    /// Every heading's anchor: lower case, punctuation dropped, spaces as hyphens, a repeat numbered.
    static func anchors(in text: String) -> [String] {
        var seen: [String: Int] = [:]
        return prose(text).filter { $0.hasPrefix("#") }.map { line in
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            let slug = String(title.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == " " || $0 == "_" }
                .map(Character.init)).replacingOccurrences(of: " ", with: "-")
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            return count == 0 ? slug : "\(slug)-\(count)"
        }
    }
}
