/// Renders measurements as one Markdown table: the README shows it verbatim.
///
/// Each ratio is the median over rounds of (this case ÷ its reference in the same round):
/// cases of one round run back to back, so a change in background load affects both.
func table(_ measurements: [Measurement]) -> String {
    var samples: [String: [String: [Double]]] = [:]
    for measurement in measurements {
        samples[measurement.scenario, default: [:]][measurement.benchmark.name] = measurement.samples
    }

    var lines = [
        "| scenario | case | median ns/op | min | max | ratio | target |",
        "| --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    var previousScenario = ""
    for measurement in measurements {
        let benchmark = measurement.benchmark
        let scenarioSamples = samples[measurement.scenario] ?? [:]
        let scenarioColumn = measurement.scenario == previousScenario ? "" : measurement.scenario
        previousScenario = measurement.scenario
        let sorted = measurement.samples.sorted()

        var ratio = "baseline"
        if let baseline = benchmark.baseline, let reference = scenarioSamples[baseline] {
            ratio = fixed(medianRatio(measurement.samples, reference), digits: 2) + "×"
        }
        var target = ""
        if let wanted = benchmark.target, wanted.reference == nil {
            let achieved = median(sorted)
            let verdict = achieved <= wanted.limit ? "met" : "MISSED"
            target = "≤ \(duration(wanted.limit)): \(duration(achieved)) \(verdict)"
        } else if let wanted = benchmark.target, let referenceName = wanted.reference,
            let reference = scenarioSamples[referenceName]
        {
            let achieved = medianRatio(measurement.samples, reference)
            let verdict = achieved <= wanted.limit ? "met" : "MISSED"
            let against = referenceName == benchmark.baseline ? "" : " \(referenceName)"
            let digits = (wanted.limit * 10).rounded() == wanted.limit * 10 ? 1 : 2
            target = "≤ \(fixed(wanted.limit, digits: digits))×\(against): \(fixed(achieved, digits: 2))× \(verdict)"
        }
        lines.append(
            "| \(scenarioColumn) | \(benchmark.name) | \(fixed(median(sorted), digits: 1)) "
                + "| \(fixed(sorted.first ?? 0, digits: 1)) | \(fixed(sorted.last ?? 0, digits: 1)) "
                + "| \(ratio) | \(target) |"
        )
    }
    return lines.joined(separator: "\n")
}

/// `nanoseconds` in the unit that reads best: ns, µs or ms.
func duration(_ nanoseconds: Double) -> String {
    if nanoseconds >= 1_000_000 { return fixed(nanoseconds / 1_000_000, digits: 2) + " ms" }
    if nanoseconds >= 1_000 { return fixed(nanoseconds / 1_000, digits: 1) + " µs" }
    return fixed(nanoseconds, digits: 1) + " ns"
}

/// The median of an ascending array (0 when empty).
func median(_ sorted: [Double]) -> Double {
    sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

/// The median over rounds of `samples[i] / reference[i]`.
func medianRatio(_ samples: [Double], _ reference: [Double]) -> Double {
    median(zip(samples, reference).compactMap { $1 > 0 ? $0 / $1 : nil }.sorted())
}

/// `value` with exactly `digits` decimals (no Foundation `String(format:)`).
func fixed(_ value: Double, digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 1e15 else { return "\(value)" }
    let integer = Int(scaled)
    let whole = integer / Int(scale)
    var fraction = String(integer % Int(scale))
    while fraction.count < digits { fraction = "0" + fraction }
    let sign = value < 0 && scaled > 0 ? "-" : ""
    return digits == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
}
