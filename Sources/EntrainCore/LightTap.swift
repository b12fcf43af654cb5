/// The light and touch values of one period, as the ports show them at its last frame: what a
/// sender on another thread (DMX to fixtures) needs to show the same light the CV ports carry.
public struct LightTapFrame: BitwiseCopyable {
    /// The sources a DMX channel may follow, in `values` order.
    public static let sourceNames = ["led", "led_2", "led_3", "led_4", "led_5", "led_6", "led_7", "led_8",
                                     "haptic_intensity", "haptic_sharpness"]
    /// The port behind `values[k]` (led, led_2 … led_8, haptic_intensity, haptic_sharpness are
    /// numbered 5, 7 … 15), as arithmetic: no array on the process thread.
    @inlinable @inline(__always)
    public static func portIndex(_ k: Int) -> Int { k == 0 ? ClientPort.led.rawValue : ClientPort.led2.rawValue + k - 1 }
    public static var count: Int { 10 }

    /// Engine frame of the value (the period's last frame).
    public var frame: Int64
    public var values: InlineArray<10, Float>

    public init(frame: Int64, values: InlineArray<10, Float>) {
        self.frame = frame
        self.values = values
    }
}

/// Process thread → light senders: one frame per period. A full ring drops the newest (the
/// reader is late; it catches up on the next period).
public typealias LightTapRing = SPSCRing<LightTapFrame>
