import Foundation
import Workloads

extension ResultsFile {
    /// The results of a run as `bench compare` and `bench report` would read them back from its
    /// CSV and samples file, without reading them: each row's fields are the CSV row's own
    /// (`ResultsCSV.row`), so a summary made during a run matches the file.
    public init(results: [WorkloadResult], plan: RunPlan, context: RunContext, url: URL) {
        let names = ResultsCSV.columns.map(\.name)
        let samplesFile = SamplesCSV.url(besides: url).lastPathComponent
        self.url = url
        warnings = []
        rows = results.enumerated().map { index, result in
            // The writer's own fields, as reading its row back gives them.
            let record = ResultsCSV.fields(result, plan: plan, context: context, samplesFile: samplesFile, ratio: RatioInterval(result, among: results),
                                           baselineWork: RatioInterval.reference(of: result, among: results)?.work)
            let fields = Dictionary(zip(names, record), uniquingKeysWith: { a, _ in a })
            let statistics = Statistics(result.samples)
            return Row(line: index + 2, fields: fields, median: statistics.median, interval: statistics.medianInterval,
                       samples: result.samples.map(Double.init))
        }
    }
}
