import EntrainAddressSpace

/// The lists of stored things a command's argument names: the router has the stores each is
/// read from (`OSCRouter.init` provides them to the address space), OSCQuery offers them as the
/// argument's `VALS`, so the control page's menus show what exists now.
extension Catalog {
    public static let presets = Catalog("presets")
    public static let playlists = Catalog("playlists")
    public static let sessions = Catalog("sessions")
    public static let patterns = Catalog("patterns")
    public static let ambientPresets = Catalog("ambient presets")
}
