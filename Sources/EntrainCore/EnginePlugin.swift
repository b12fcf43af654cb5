/// The contract every generator or analyser implements.
///
/// `init` is the prepare step: it may allocate and is never called on the process thread.
/// `set` and `render` run on the process thread and must not allocate, lock, log or touch a
/// class; the engine calls them on concrete types, so there is no dynamic dispatch either.
public protocol EnginePlugin {
    static var descriptor: PluginDescriptor { get }

    /// Prepare for `sampleRate` with the plugin's own parameter values (declaration order).
    init(sampleRate: Double, values: [Double])

    /// Apply a validated change to local parameter `index`.
    mutating func set(_ index: Int, to value: Double, glideFrames: Int, exponential: Bool)

    /// Render frames `range` of this period into the plugin's ports.
    mutating func render(_ io: PortBuffers, _ range: Range<Int>)

    /// Free what `init` allocated.
    func deallocate()
}
