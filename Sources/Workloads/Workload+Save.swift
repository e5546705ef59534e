import FetchRequests
import Models

extension Workload {
    /// The variant of a save's one case (`line-12/save`), which tells a save from a fetch in results.
    public static let saveVariant = "save"

    /// An app's save (`bench replay`), timed as `delete-cascade` is: each repetition on a fresh
    /// copy of the populated store (copied untimed), the save's statements made untimed, then run
    /// as one transaction. Its answer: the changes made and, after the first repetition, each
    /// concrete entity's objects and every object the save inserted or updated, read back.
    /// With `values`, its inserts and updates are given the new values a log bound (`SaveValues`).
    public static func save(_ spec: SaveSpec, name: String, model: Model, values: SaveValues? = nil) -> Workload {
        var workload = Workload(name: name, summary: "a save of yours: \(spec.summary(model))", kind: .save, warmups: 1, budget: 1.5, inDefaultRun: false)
        workload.save = spec
        workload.saveValues = values
        workload.request = spec.summary(model)
        return workload
    }
}
