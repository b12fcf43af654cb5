import EntrainCore

/// The client's stereo outputs, as an offline render names them (stems are `<name>.wav`).
public enum OutputPair: String, CaseIterable, Sendable {
    case entrainment, ambient

    public var left: ClientPort { self == .entrainment ? .entrainmentL : .ambientL }
    public var right: ClientPort { self == .entrainment ? .entrainmentR : .ambientR }
}
