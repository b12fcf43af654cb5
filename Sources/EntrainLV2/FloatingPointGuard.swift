import Foundation

/// Some plugins set the FPU's denormal flags (flush-to-zero) on the thread that instantiates,
/// activates or frees them. On a control thread that changes how every later number there is
/// computed and printed (5e-324 reads as 0), so the environment is put back after each call.
enum FloatingPointGuard {
    static func keeping<T>(_ body: () throws -> T) rethrows -> T {
        var saved = fenv_t()
        fegetenv(&saved)
        defer { fesetenv(&saved) }
        return try body()
    }
}
