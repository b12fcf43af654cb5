/// Frames a second from their arrival times: the slope of a least-squares line through (frame,
/// time), not the count over the first-to-last span. A sender on a fixed schedule that was held
/// up sends the frames it owes at once; a hold-up at either end of the span shortened it and read
/// 41.5 for 40 and 21.1 for 20 on a loaded machine, where the line through every frame hardly moves.
public func framesPerSecond(arrivals: [Double]) -> Double {
    let n = Double(arrivals.count)
    guard arrivals.count > 1 else { return 0 }
    let meanIndex = (n - 1) / 2, meanTime = arrivals.reduce(0, +) / n
    var covariance = 0.0, variance = 0.0
    for (i, t) in arrivals.enumerated() {
        let x = Double(i) - meanIndex
        covariance += x * (t - meanTime)
        variance += x * x
    }
    return covariance > 0 ? variance / covariance : 0
}
