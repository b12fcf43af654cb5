import Foundation

/// Poll `condition` every `interval` until it holds: how tests wait for something to happen
/// instead of sleeping a fixed time. Throws `TestSupportError.timeout(what)` after `timeout`.
public func waitFor(_ what: String, timeout: TimeInterval = 15, interval: TimeInterval = 0.02,
                    _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while try !condition() {
        if Date() > deadline { throw TestSupportError.timeout(what) }
        Thread.sleep(forTimeInterval: interval)
    }
}

/// The same without throwing: whether `condition` came to hold within `timeout`.
@discardableResult
public func waitUntil(timeout: TimeInterval, interval: TimeInterval = 0.02, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while try !condition() {
        if Date() > deadline { return false }
        Thread.sleep(forTimeInterval: interval)
    }
    return true
}

extension Array {
    /// The element at `index`, nil past either end (a reply shorter than expected fails an
    /// assertion instead of crashing the test run).
    public subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
