/// Word lists the generator draws titles, tag names and blog names from.
enum Words {
    static let topics: [String] = [
        "swift", "coredata", "sqlite", "database", "storage", "performance", "concurrency", "networking",
        "security", "testing", "design", "architecture", "algorithms", "compilers", "linux", "macos",
        "ios", "privacy", "cloud", "sync", "migration", "indexing", "caching", "memory",
        "energy", "graphics", "audio", "video", "machine-learning", "statistics", "history", "economics",
        "biology", "chemistry", "physics", "astronomy", "geology", "climate", "ecology", "medicine",
        "genetics", "neuroscience", "psychology", "linguistics", "philosophy", "law", "politics", "education",
        "music", "painting", "architecture-history", "photography", "cinema", "theatre", "literature", "poetry",
        "travel", "cooking", "gardening", "cycling", "running", "sailing", "chess", "mathematics",
        "logic", "cryptography", "typography", "accessibility", "localization", "documentation", "open-source", "startups",
        "management", "productivity", "writing", "journalism", "podcasts", "robotics", "embedded", "hardware",
        "networking-history", "web", "browsers", "javascript", "rust", "go", "python", "java",
        "kotlin", "haskell", "functional-programming", "type-systems", "databases-theory", "distributed-systems", "consensus", "observability",
        "devops", "containers",
    ]

    static let title: [String] = [
        "the", "a", "of", "and", "in", "on", "for", "with",
        "without", "toward", "beyond", "under", "over", "between", "after", "before",
        "during", "through", "across", "against", "among", "around", "inside", "outside",
        "near", "far", "new", "old", "small", "large", "quiet", "loud",
        "early", "late", "rapid", "slow", "hidden", "open", "closed", "silent",
        "bright", "dark", "simple", "complex", "modern", "ancient", "future", "lost",
        "found", "study", "survey", "analysis", "review", "guide", "notes", "essay",
        "report", "account", "history", "theory", "practice", "method", "model", "system",
        "structure", "pattern", "process", "change", "growth", "decline", "rise", "fall",
        "balance", "limit", "edge", "center", "border", "river", "mountain", "city",
        "village", "garden", "forest", "ocean", "desert", "island", "bridge", "road",
        "tower", "library", "museum", "market", "school", "harbor", "station", "window",
        "door", "letter", "map", "clock", "mirror", "engine", "signal", "network",
        "archive", "index", "record", "table", "column", "query", "page", "tree",
        "graph", "stream", "signal", "field", "wave", "light", "shadow", "stone",
        "glass", "iron", "paper", "silver", "golden", "red", "blue", "green",
        "white", "black", "winter", "summer", "spring", "autumn", "morning", "evening",
        "night", "day", "year", "century", "moment", "memory", "dream", "voice",
        "story", "journey", "question", "answer", "problem", "solution", "reason", "evidence",
        "measure", "scale", "speed", "cost", "value",
    ]

    static let blogs: [String] = [
        "Swift by Sundell", "The Daily Byte", "Quiet Engineering", "Indexes and Joins", "Field Notes", "The Sparse Table", "Nil Coalescing", "Weekly Swift",
        "Fatbobman's Swift Weekly", "Objc Archive", "Core Data Corner", "The Query Planner", "Page Faults", "Write-Ahead", "Late Binding", "Type Erasure",
        "The Main Thread", "Background Context", "Merge Policy", "Fault Lines", "Persistent History", "Lightweight Migration", "The Object Graph", "Value Semantics",
        "Protocol Witness", "The Reading Room", "Slow Cooking", "Open Roads", "Night Sky Notes", "The Long Run",
    ]
}
