/// What the DMX senders read each frame: the channel map, the refresh, the extra offset, the
/// sACN priority, and the universe they were started on.
public struct DMXSettings: Sendable, Equatable {
    public var map = DMXChannelMap()
    /// Frames per second, 1–44 (DMX512 carries at most about 44 full universes a second).
    public var rate = 40.0
    /// Extra delay of the DMX light after the CV port's, ms (a node's or fixture's own lag is
    /// negative here: the light is then taken from later, as far as it is rendered).
    public var offsetMilliseconds = 0.0
    public var priority = SACNPacket.defaultPriority
    public var universe = 1

    public static let rates: ClosedRange<Double> = 1...44
    public static let offsets: ClosedRange<Double> = -200...1000

    public init() {}
}
