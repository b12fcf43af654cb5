import CJack
import EntrainCore

/// Everything a freshly opened JACK handle needs: the ports with their metadata, the callbacks,
/// and the process context pointed at it. The same steps on the first open and on each return
/// of the server, so the ports come back with the same names and metadata.
extension JackClient {
    /// Only while no handle of ours is active (the context's plain fields are not atomics).
    func setUp(_ client: OpaquePointer, handles: inout [ClientPort: OpaquePointer]) throws {
        context.pointee.client = client
        context.pointee.ports = InlineArray(repeating: nil)
        context.pointee.sampleRate.store(Int(jack_get_sample_rate(client)), ordering: .relaxed)
        context.pointee.bufferSize.store(Int(jack_get_buffer_size(client)), ordering: .relaxed)
        context.pointee.forgetAnchor()
        context.pointee.freewheeling.store(false, ordering: .relaxed)
        var metadata = PortMetadata(client: client)
        for port in ClientPort.allCases where options.wants(port) {
            let flags = (port.direction == .output ? JackPortIsOutput.rawValue : JackPortIsInput.rawValue)
                | JackPortIsTerminal.rawValue
            guard let handle = jack_port_register(client, port.name, JACK_DEFAULT_AUDIO_TYPE, UInt(flags), 0) else {
                throw JackError.cannotRegister(port: port.name)
            }
            handles[port] = handle
            context.pointee.ports[port.rawValue] = handle
            metadata.describe(handle, as: port)
        }
        try registerMIDI(client, metadata: &metadata)
        if metadata.unsupported { logger.notice("\(PortMetadata.unsupportedNotice)") }
        if let partial = metadata.partialNotice { logger.notice("\(partial)") }
        installCallbacks(client)
        context.pointee.serverGone.store(false, ordering: .releasing)
    }

    /// The callbacks only store into the context's atomics (no locks, no classes); the control
    /// loop reads them.
    private func installCallbacks(_ client: OpaquePointer) {
        let arg = UnsafeMutableRawPointer(context)
        jack_set_process_callback(client, { frames, arg in
            arg!.assumingMemoryBound(to: ProcessContext.self).pointee.process(frames: frames)
            return 0
        }, arg)
        jack_set_thread_init_callback(client, { _ in
            entrain_flush_denormals()
            entrain_name_this_thread("entrain-jack")
        }, arg)
        jack_set_xrun_callback(client, { arg in
            arg!.assumingMemoryBound(to: ProcessContext.self).pointee.xruns.add(1, ordering: .relaxed)
            return 0
        }, arg)
        jack_set_buffer_size_callback(client, { frames, arg in
            // The engine renders any period length (its buffers are sized for JACK's largest), so
            // a new period needs nothing re-prepared: only remembered, for the status.
            let context = arg!.assumingMemoryBound(to: ProcessContext.self)
            context.pointee.bufferSize.store(Int(frames), ordering: .relaxed)
            context.pointee.bufferSizeChanges.add(1, ordering: .relaxed)
            return 0
        }, arg)
        jack_set_sample_rate_callback(client, { rate, arg in
            arg!.assumingMemoryBound(to: ProcessContext.self).pointee.sampleRate.store(Int(rate), ordering: .relaxed)
            return 0
        }, arg)
        // Both shutdown callbacks: jackd calls the info one, PipeWire's libjack only the plain
        // one. Each only sets a flag (closing the client here is forbidden; the control loop
        // reacts), so both firing is harmless.
        jack_on_info_shutdown(client, { _, _, arg in
            arg!.assumingMemoryBound(to: ProcessContext.self).pointee.serverGone.store(true, ordering: .relaxed)
        }, arg)
        jack_on_shutdown(client, { arg in
            arg!.assumingMemoryBound(to: ProcessContext.self).pointee.serverGone.store(true, ordering: .relaxed)
        }, arg)
        jack_set_freewheel_callback(client, { starting, arg in
            arg!.assumingMemoryBound(to: ProcessContext.self).pointee.freewheeling.store(starting != 0, ordering: .relaxed)
        }, arg)
        jack_set_port_connect_callback(client, { a, b, connected, arg in
            let context = arg!.assumingMemoryBound(to: ProcessContext.self)
            context.pointee.connectionsChanged.store(true, ordering: .relaxed)
            if connected != 0, let client = context.pointee.client, let midi = context.pointee.midiOut,
               jack_port_by_id(client, a) == midi || jack_port_by_id(client, b) == midi {
                context.pointee.midiListeners.add(1, ordering: .relaxed)
            }
        }, arg)
        jack_set_latency_callback(client, { mode, arg in
            arg!.assumingMemoryBound(to: ProcessContext.self).pointee.latencyChanged(mode: mode)
        }, arg)
    }
}
