import EntrainAddressSpace

/// One OSC method as OSCQuery describes it: an address with its type tags, access, range,
/// unit and a way to read its value now.
struct OSCQueryMethod {
    enum Access: Int {
        case read = 1, write = 2, readWrite = 3
    }

    let path: String
    /// OSC type tags ("f", "s", "T"; "N" for a command without arguments); nil: not declared.
    let type: String?
    let access: Access
    let description: String
    var range: [[String: Any]]?
    var unit: String?
    var clipMode: String?
    /// The value now as a JSON scalar, for readable methods of the address space.
    var value: (() -> Any?)?
    /// Our own attributes (`ENTRAIN_…`), read at each request: what a control needs beyond
    /// OSCQuery's (a fader's curve, a command's arguments and the names they may take).
    var extensions: () -> [String: Any] = { [:] }
    /// The RANGE at each request, for a command whose arguments name stored things.
    var liveRange: (() -> [[String: Any]])?

    /// A value of a family: what `/entrain/carrier` and every Kessho key become.
    init(_ descriptor: ControlDescriptor, family: any AddressFamily) {
        path = descriptor.address
        access = descriptor.readOnly ? .read : .readWrite
        let unitText = descriptor.unit.isEmpty ? "" : " (\(descriptor.unit))"
        description = descriptor.summary + unitText
        unit = Self.unit(descriptor.unit)
        var own: [String: Any] = descriptor.personOnly ? ["ENTRAIN_PERSON_ONLY": true] : [:]
        switch descriptor.kind {
        case .number(let bounds, let step, let curve, let integer):
            type = "f"
            if let bounds { range = [["MIN": bounds.lowerBound, "MAX": bounds.upperBound]] }
            clipMode = bounds == nil ? "none" : "both"
            if curve == .logarithmic, let bounds, bounds.lowerBound > 0 { own["ENTRAIN_CURVE"] = "logarithmic" }
            if let step { own["ENTRAIN_STEP"] = step } else if integer { own["ENTRAIN_STEP"] = 1 }
        case .toggle:
            type = "T"
        case .choice(let options, _):
            type = "s"
            range = [["VALS": options]]
        case .list(let options):
            type = "s"
            if let every = Self.combinations(options) { range = [["VALS": every]] }
        case .text(let options):
            type = "s"
            if let options { range = [["VALS": options]] }
        }
        let fixed = own
        extensions = { fixed }
        let address = descriptor.address
        value = { [weak family] in family?.value(of: address).map(Self.json) }
    }

    /// A command: written, never read (TYPE `N` when it needs no argument). Its arguments are
    /// listed under `ENTRAIN_ARGUMENTS` (with the names a stored thing may have now, as VALS,
    /// also in RANGE), a push button (a controller's press does it) says `ENTRAIN_BUTTON`, and a
    /// command whose whole effect is its reply (`/ping`, the lists) `ENTRAIN_ANSWERS_ONLY`.
    init(_ command: CommandDescriptor, space: AddressSpace) {
        path = command.address
        type = command.typeTags
        access = .write
        description = Self.plain(command.summary)
        let arguments = command.arguments, pressable = command.pressable
        let names = { [weak space] (argument: CommandDescriptor.Argument) -> [String]? in argument.catalog.flatMap { space?.names(in: $0) } }
        extensions = {
            var own: [String: Any] = ["ENTRAIN_ARGUMENTS": arguments.map { argument -> [String: Any] in
                var entry: [String: Any] = ["TYPE": argument.tags, "NAME": argument.name, "OPTIONAL": argument.optional]
                if let catalog = argument.catalog { entry["CATALOG"] = catalog.name }
                if let vals = names(argument) { entry["VALS"] = vals }
                return entry
            }]
            if pressable { own["ENTRAIN_BUTTON"] = true }
            if command.personOnly { own["ENTRAIN_PERSON_ONLY"] = true }
            if command.answersOnly { own["ENTRAIN_ANSWERS_ONLY"] = true }
            return own
        }
        if arguments.contains(where: { $0.catalog != nil && !$0.optional }) {
            liveRange = { arguments.filter { !$0.optional }.map { names($0).map { ["VALS": $0] } ?? [:] } }
        }
    }

    /// Something entrain sends: read, and nothing to read until it is sent.
    init(published path: String, type: String, _ arguments: String) {
        self.path = path
        self.type = type
        access = .read
        description = Self.plain(arguments)
    }

    /// Markdown to plain text.
    static func plain(_ text: String) -> String {
        text.replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "**", with: "")
    }

    /// Every value a list of names can take, as its value is written (names in the options'
    /// order, comma-separated, or "none"), so the value in force is always one of RANGE's VALS;
    /// nil past five names (more than 32 values: no menu is wanted).
    static func combinations(_ options: [String]) -> [String]? {
        guard options.count <= 5 else { return nil }
        let subsets = (1..<(1 << options.count)).map { mask in options.indices.filter { mask & (1 << $0) != 0 }.map { options[$0] } }
        return ["none"] + subsets.sorted { $0.count != $1.count ? $0.count < $1.count : false }.map { $0.joined(separator: ",") }
    }

    static func json(_ value: ControlValue) -> Any {
        switch value {
        case .number(let n): n
        case .bool(let b): b
        case .text(let s): s
        }
    }

    /// OSCQuery's unit names where one fits; other units as they are written.
    static func unit(_ text: String) -> String? {
        switch text {
        case "": nil
        case "Hz": "frequency.hz"
        case "s": "time.s"
        case "ms": "time.ms"
        case "dB", "dBFS": "gain.db"
        default: text
        }
    }
}
