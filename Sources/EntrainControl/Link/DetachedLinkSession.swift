/// The link family's values with no session behind them: what the schema, `ctl` and files are
/// checked against when no client runs (no network, no peers).
public final class DetachedLinkSession: LinkSessionControl, @unchecked Sendable {
    public var enabled = false
    public var peers: Int { 0 }
    public var tempo = 120.0
    public var quantum = 4.0
    public var startStop = false
    public var roleName = "follow"

    public init() {}
}
