import EntrainControl
import EntrainEngine
import EntrainJACK

/// The arguments of the /status reply (documented in osc-schema.md).
enum StatusReport {
    static func arguments(host: EngineHost, client: JackClient) -> [OSCValue] {
        let values = host.valuesInForce
        func value(_ address: String) -> Double { (try? host.table.entry(for: address)).map { values[$0.index] } ?? 0 }
        let modes = ["binaural", "monaural", "isochronic"]
        return [
            .string(host.isStopped ? "stopped" : "running"),
            .string(modes[min(modes.count - 1, Int(value("/entrain/mode")))]),
            .float(Float(value("/entrain/carrier"))),
            .float(Float(value("/entrain/beat"))),
            .float(Float(value("/entrain/volume"))),
            .int32(Int32(clamping: client.xruns)),
            .float(client.cpuLoad),
            .int32(value("/led/arm") == 1 ? 1 : 0),
            .int32(host.isPanicked ? 1 : 0),
            .float(Float(Double(host.frame) / host.sampleRate)),
            .string(client.serverGone ? "gone" : "up"),
            .int32(Int32(clamping: client.bufferSize)),
            .int32(Int32(clamping: client.returns)),
            .float(Float((client.lastSecondSlowestPeriod?.share ?? 0) * 100)),
            .int32(Int32(clamping: client.rememberedConnections.values.reduce(0) { $0 + $1.count })),
        ]
    }
}
