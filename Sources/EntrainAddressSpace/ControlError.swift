/// Why an address refused a value (or a query): one error type for every family, so every
/// surface reports the same words. `description` starts with the address.
public struct ControlError: Error, Equatable, Sendable, CustomStringConvertible {
    public let address: String
    public let reason: String

    public init(_ address: String, _ reason: String) {
        self.address = address
        self.reason = reason
    }

    public var description: String { "\(address): \(reason)" }

    public static func unknown(_ address: String) -> ControlError { ControlError(address, "unknown address") }
}
