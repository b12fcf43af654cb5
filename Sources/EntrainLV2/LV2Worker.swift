import CLilv
import EntrainCore
import Foundation
import EntrainService

/// One message between a plugin and its worker: up to 256 bytes, inline, so the rings carry
/// plain values and the process thread never allocates.
struct WorkMessage: BitwiseCopyable {
    typealias Eight = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    var size: UInt32 = 0
    var bytes: (Eight, Eight, Eight, Eight) = ((0, 0, 0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0, 0, 0),
                                               (0, 0, 0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0, 0, 0))
    static let capacity = 256

    init?(_ size: UInt32, _ data: UnsafeRawPointer?) {
        guard Int(size) <= Self.capacity else { return nil }
        self.size = size
        if let data, size > 0 { withUnsafeMutableBytes(of: &bytes) { $0.baseAddress!.copyMemory(from: data, byteCount: Int(size)) } }
    }
}

/// The worker extension for one instance: requests from the plugin's `run` (the process
/// thread) to a worker thread, and the worker's responses back, each through its own ring; the
/// responses and `end_run` are delivered on the process thread after the plugin's run.
struct WorkerChannel {
    let requests: UnsafeMutablePointer<SPSCRing<WorkMessage>>
    let responses: UnsafeMutablePointer<SPSCRing<WorkMessage>>
    var instance: UnsafeMutableRawPointer?
    var interface: UnsafePointer<LV2_Worker_Interface>?
    /// The feature handed to the plugin (its handle is this channel).
    var schedule: LV2_Worker_Schedule

    /// A channel at a stable address (the feature points at it).
    static func make() -> UnsafeMutablePointer<WorkerChannel> {
        let channel = UnsafeMutablePointer<WorkerChannel>.allocate(capacity: 1)
        let requests = UnsafeMutablePointer<SPSCRing<WorkMessage>>.allocate(capacity: 1)
        requests.initialize(to: SPSCRing(capacity: 64))
        let responses = UnsafeMutablePointer<SPSCRing<WorkMessage>>.allocate(capacity: 1)
        responses.initialize(to: SPSCRing(capacity: 64))
        channel.initialize(to: WorkerChannel(requests: requests, responses: responses, instance: nil, interface: nil,
                                             schedule: LV2_Worker_Schedule(handle: UnsafeMutableRawPointer(channel), schedule_work: { handle, size, data in
            guard let handle, let message = WorkMessage(size, data) else { return LV2_WORKER_ERR_NO_SPACE }
            return handle.assumingMemoryBound(to: WorkerChannel.self).pointee.requests.pointee.push(message)
                ? LV2_WORKER_SUCCESS : LV2_WORKER_ERR_NO_SPACE
        })))
        // Touch the rings' generic code once here, so its metadata is never first made (and
        // allocated) on the process thread.
        if let probe = WorkMessage(0, nil), requests.pointee.push(probe) { _ = requests.pointee.popFirst() }
        return channel
    }

    static func free(_ channel: UnsafeMutablePointer<WorkerChannel>) {
        channel.pointee.requests.deinitialize(count: 1).deallocate()
        channel.pointee.responses.deinitialize(count: 1).deallocate()
        channel.deinitialize(count: 1).deallocate()
    }
}

/// Process thread, after the slot's runs (the slot's hook): each instance's responses, then its end_run.
let deliverWorkerResponses: @convention(c) (UnsafeMutableRawPointer?, Int) -> Void = { context, count in
    guard let context else { return }
    let channels = context.assumingMemoryBound(to: UnsafeMutablePointer<WorkerChannel>.self)
    for k in 0..<count {
        let channel = channels[k].pointee
        guard let interface = channel.interface else { continue }
        while var message = channel.responses.pointee.popFirst() {
            let size = message.size
            withUnsafeBytes(of: &message.bytes) { _ = interface.pointee.work_response?(channel.instance, size, $0.baseAddress) }
        }
        _ = interface.pointee.end_run?(channel.instance)
    }
}

/// The worker thread of one loaded plugin: runs its `work` for every request, off the process
/// thread, until stopped. It polls (every millisecond) so the process thread never signals.
final class WorkerThread: @unchecked Sendable {
    private let service = ServiceThread("entrain-lv2work", every: 0.001)

    /// The channels, handed to the thread (they outlive it: freed after `stop`).
    private struct Channels: @unchecked Sendable { let list: [UnsafeMutablePointer<WorkerChannel>] }

    init(_ channels: [UnsafeMutablePointer<WorkerChannel>]) {
        let handed = Channels(list: channels)
        service.start { _ in
            let respond: LV2_Worker_Respond_Function = { handle, size, data in
                guard let handle, let message = WorkMessage(size, data) else { return LV2_WORKER_ERR_NO_SPACE }
                return handle.assumingMemoryBound(to: WorkerChannel.self).pointee.responses.pointee.push(message)
                    ? LV2_WORKER_SUCCESS : LV2_WORKER_ERR_NO_SPACE
            }
            for channel in handed.list {
                guard let interface = channel.pointee.interface else { continue }
                while var message = channel.pointee.requests.pointee.popFirst() {
                    let size = message.size
                    withUnsafeBytes(of: &message.bytes) {
                        _ = interface.pointee.work?(channel.pointee.instance, respond, UnsafeMutableRawPointer(channel), size, $0.baseAddress)
                    }
                }
            }
        }
    }

    /// Stop and wait for the thread to finish its current pass.
    func stop() { service.stop() }
}
