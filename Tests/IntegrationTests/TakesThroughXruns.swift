import TestSupport
import XCTest

/// A measurement an xrun can spoil (a dropped period moves what a take compares): `take` runs up
/// to `takes` times while it misses with xruns during it; a miss without xruns fails at once.
/// `take` returns what missed (nil: nothing) and the xruns seen during it.
func judgeThroughXruns(_ what: String, takes: Int = 3, file: StaticString = #filePath, line: UInt = #line,
                       _ take: () throws -> (miss: String?, xruns: Int)) rethrows {
    var last = ""
    for attempt in 1...takes {
        let (miss, xruns) = try take()
        guard let miss else { return }
        last = miss
        if xruns == 0 { return XCTFail(miss, file: file, line: line) }
        print("\(what): take \(attempt) had \(xruns) xrun(s) (\(miss)); taking it again")
    }
    XCTFail("\(takes) takes, each with xruns: \(last)", file: file, line: line)
}

/// A take whose waits can run out of time: a timeout is the take's miss, with the xruns seen by
/// then (a take slowed by dropped periods can run out of time as it can miss a bound, and is
/// taken again; without xruns it fails as any miss does). Other errors are thrown.
func missOnTimeout(xruns: () -> Int, _ take: () throws -> String?) throws -> (miss: String?, xruns: Int) {
    do {
        let miss = try take()
        return (miss, xruns())
    } catch let error as TestSupportError {
        guard case .timeout = error else { throw error }
        return (error.description, xruns())
    }
}
