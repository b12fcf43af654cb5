/// How a command address (one that does something rather than set a value: /resume,
/// /session/play, /timer/cancel, …) reads its arguments. A controller's push button sends
/// `1` (or `T`) on press and `0` (or `F`) on release; a plain sender sends nothing.
public enum ControllerPress: Equatable, Sendable {
    /// No argument, or one that is non-zero or true: do it.
    case press
    /// One argument that is zero, false or not a number (NaN): a button's release, ignored quietly.
    case release
    /// Anything else (a string, two arguments): refused with the reason.
    case refused(String)

    public init(_ arguments: [OSCValue]) {
        guard let argument = arguments.first else {
            self = .press
            return
        }
        guard arguments.count == 1 else {
            self = .refused("takes no argument or one int, float or bool (a button: non-zero presses, zero releases)")
            return
        }
        switch argument {
        case .true: self = .press
        case .false: self = .release
        default:
            guard let n = argument.number else {
                self = .refused("takes no argument or one int, float or bool, got '\(argument.tag)'")
                return
            }
            self = n != 0 && !n.isNaN ? .press : .release
        }
    }
}
