import EntrainAddressSpace
import EntrainAmbient
import EntrainEngine

/// The one list of the families every client has from the start, in the order the schema, the
/// tree and presets list them: `run` builds them over its live parts, the schema, the man page,
/// the layout and `ctl` over detached ones (an engine that never plays).
public enum StandardFamilies {
    public static func make(engine: CurrentEngine, conductor: AmbientConductor, hrv: HRVMonitor, dmx: DMXFamily, midi: MIDIFamily,
                            link: LinkSessionControl) -> [any AddressFamily] {
        [EngineFamily(engine), AmbientFamily(conductor), HRVFamily(hrv), dmx, midi, LinkFamily(link), ClientFamily()]
    }

    /// The families over parts that never play: what documents and checks the address space.
    public static func detached() throws -> [any AddressFamily] {
        let current = CurrentEngine(try EngineHost(sampleRate: 48_000))
        return make(engine: current, conductor: AmbientConductor(host: current.host) { .init(frame: 0, unixSeconds: 0) }, hrv: HRVMonitor(),
                    dmx: DMXFamily(), midi: MIDIFamily(), link: DetachedLinkSession())
    }
}
