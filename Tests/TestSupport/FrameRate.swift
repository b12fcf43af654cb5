/// Frames a second from their arrival times: the median slope between frames half the run apart
/// (frame i and frame i + n/2, for every i), not the count over the first-to-last span nor a
/// least-squares line. On a loaded machine a hold-up delays a few frames, which then arrive at
/// once: at either end of the span it shortened the span (41.5 for 40), and in the middle it bent
/// the least-squares line (43.8 for 40 over 80 frames after a 102 ms hold-up). Few pairs have one
/// frame in a hold-up, so their median does not move; a sender that drops or adds frames moves
/// every pair.
public func framesPerSecond(arrivals: [Double]) -> Double {
    guard arrivals.count > 1 else { return 0 }
    let apart = arrivals.count / 2
    let slopes = (0..<(arrivals.count - apart)).map { (arrivals[$0 + apart] - arrivals[$0]) / Double(apart) }.sorted()
    let middle = slopes.count / 2
    let secondsPerFrame = slopes.count % 2 == 1 ? slopes[middle] : (slopes[middle - 1] + slopes[middle]) / 2
    return secondsPerFrame > 0 ? 1 / secondsPerFrame : 0
}
