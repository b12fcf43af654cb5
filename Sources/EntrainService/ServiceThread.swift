#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A control-side thread of its own, for the loops that keep a client's surroundings going (the
/// OSC server, DMX frames, MIDI in, the heart-data port, the ambient pump, the phrase beats, the
/// breathing pacer, the insert chains' chores, an LV2 plugin's worker). Never the process
/// thread's: it locks and sleeps.
///
/// Its owner keeps one (`let`), starts it with a turn and stops it. It runs the turn over and
/// over until stopped, waiting `every` seconds after each one. The wait is on a condition, so
/// `stop` (and `wake`) cut it short: stopping takes one turn at most, never a whole interval. A
/// turn that waits on something itself (a `poll` with a timeout) leaves the interval at 0. The
/// thread holds the turn (and what it captures) only while it runs. It is named
/// (`pthread_setname_np`: at most 15 bytes, e.g. `entrain-osc`), so `top -H`, `ps -L` and
/// /proc/PID/task/*/comm tell the threads apart.
public final class ServiceThread: @unchecked Sendable {
    public typealias Turn = @Sendable (ServiceThread) -> Void

    public let name: String
    private let interval: Double
    /// Keeps time for something seen (light frames): asks for the lowest real-time priority.
    private let paced: Bool
    // Guarded by `mutex`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var thread: pthread_t?
    /// The thread once made (kept after a join or detach took `thread`).
    private var runner: pthread_t?
    private var stopping = false
    private var ended = false
    private var woken = false
    /// The thread has taken its name (`start` returns only then).
    private var named = false

    /// `name`: the thread's name (cut to 15 bytes); `every`: seconds to wait after each turn.
    /// `paced`: the thread sends frames on a clock people see (DMX, pixels). On a loaded
    /// machine an ordinary thread wakes tens of milliseconds late and frames go missing (34 of
    /// 40 a second measured with the load at 7 on two cores), so it asks for SCHED_FIFO at
    /// priority 1: above every ordinary thread, below any audio thread that has a real-time
    /// priority. Without the right to it, the thread goes on as an ordinary one.
    public init(_ name: String, every interval: Double = 0, paced: Bool = false) {
        self.name = name
        self.interval = interval
        self.paced = paced
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        stop()
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// What the new thread is handed: the service and its turn.
    private final class Start {
        let service: ServiceThread
        let turn: Turn
        init(_ service: ServiceThread, _ turn: @escaping Turn) {
            self.service = service
            self.turn = turn
        }
    }

    /// Start the thread running `turn` (it gets the service: to wait within a turn, or to end);
    /// it returns once the thread carries its name. Once: a running or stopped service does not
    /// start again. False if no thread could be made.
    @discardableResult
    public func start(_ turn: @escaping Turn) -> Bool {
        locked {
            guard thread == nil, !stopping else { return false }
            let context = Unmanaged.passRetained(Start(self, turn)).toOpaque()
            var created = pthread_t()
            let result = pthread_create(&created, nil, { context in
                let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
                start.service.run(start.turn)
                return nil
            }, context)
            guard result == 0 else {
                Unmanaged<Start>.fromOpaque(context).release()
                ended = true
                stopping = true  // once: a service that could not start stays stopped
                return false
            }
            thread = created
            runner = created
            while !named { pthread_cond_wait(condition, mutex) }
            return true
        }
    }

    private func run(_ turn: Turn) {
        #if os(Linux)
        _ = setThreadName(pthread_self(), String(decoding: name.utf8.prefix(15), as: UTF8.self))
        #endif
        if paced {
            var lowest = sched_param()
            lowest.sched_priority = sched_get_priority_min(SCHED_FIFO)
            _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &lowest)
        }
        locked {
            named = true
            pthread_cond_broadcast(condition)
        }
        while !isStopping {
            turn(self)
            if interval > 0 { wait(interval) }
        }
        // Ended by its turn (`end`), with no `stop` to join it: it detaches itself. Whoever takes
        // `thread` first, this or `stop`, owns the join or the detach.
        let unjoined: Bool = locked {
            ended = true
            pthread_cond_broadcast(condition)  // a second `stop` waits for this
            defer { thread = nil }
            return thread != nil
        }
        if unjoined { pthread_detach(pthread_self()) }
    }

    /// Whether `stop` (or `end`) was called: a turn that loops within itself checks it.
    public var isStopping: Bool { locked { stopping } }

    /// Whether the thread has finished its last turn.
    public var hasEnded: Bool { locked { ended } }

    /// Ask the thread to finish after its current turn, wake it, and wait until it has (at once
    /// when called from the thread itself, or when it never started). Safe to call twice, from
    /// any thread: every caller but the thread itself returns once it has finished; true only
    /// for the call that stopped a started thread.
    @discardableResult
    public func stop() -> Bool {
        let joining: pthread_t? = locked {
            stopping = true
            pthread_cond_broadcast(condition)
            defer { thread = nil }
            if thread == nil, let runner, pthread_equal(runner, pthread_self()) == 0 {
                while !ended { pthread_cond_wait(condition, mutex) }  // another caller joins it, or it detached
            }
            return thread
        }
        guard let joining else { return false }
        if pthread_equal(joining, pthread_self()) != 0 {
            pthread_detach(joining)
        } else {
            pthread_join(joining, nil)
        }
        return true
    }

    /// From a turn: this is the last one (the thread ends after it, and detaches itself unless
    /// `stop` came first to join it).
    public func end() { locked { stopping = true } }

    /// Cut the current or the next wait short (something to do).
    public func wake() {
        locked {
            woken = true
            pthread_cond_broadcast(condition)
        }
    }

    /// Wait up to `seconds`, or until stopped or woken. False when stopping.
    @discardableResult
    public func wait(_ seconds: Double) -> Bool { wait(until: Self.monotonicNow() + seconds) }

    /// Wait until `deadline` (seconds on CLOCK_MONOTONIC, as `monotonicNow`), or until stopped
    /// or woken. False when stopping.
    @discardableResult
    public func wait(until deadline: Double) -> Bool {
        var limit = timespec(tv_sec: Int(deadline), tv_nsec: Int((deadline - deadline.rounded(.down)) * 1e9))
        return locked {
            while !stopping && !woken && Self.monotonicNow() < deadline {
                _ = pthread_cond_timedwait(condition, mutex, &limit)
            }
            woken = false
            return !stopping
        }
    }

    /// Seconds on CLOCK_MONOTONIC (never steps with the wall clock).
    public static func monotonicNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

#if os(Linux)
/// glibc's `pthread_setname_np` (a GNU extension the Glibc module does not show).
@_silgen_name("pthread_setname_np")
private func setThreadName(_ thread: pthread_t, _ name: UnsafePointer<CChar>) -> Int32
#endif
