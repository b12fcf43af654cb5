import EntrainAddressSpace
/// What a plugin tells the host about itself: its id, the ports it uses and its parameters.
public struct PluginDescriptor: Sendable {
    public struct ConstraintViolation: Sendable, Equatable {
        public let address: String
        public let reason: String
        public init(address: String, reason: String) {
            self.address = address
            self.reason = reason
        }
    }

    public let id: String
    public let parameters: [ControlDescriptor]
    /// Rules that span several parameters (e.g. the isochronic minimum pulse rate).
    /// Gets the plugin's own values in declaration order; returns the first violation.
    public let constraints: @Sendable ([Double]) -> ConstraintViolation?

    public init(id: String, parameters: [ControlDescriptor],
                constraints: @escaping @Sendable ([Double]) -> ConstraintViolation? = { _ in nil }) {
        self.id = id
        self.parameters = parameters
        self.constraints = constraints
    }
}
