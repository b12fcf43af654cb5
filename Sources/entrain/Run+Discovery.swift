import EntrainAddressSpace
import EntrainControl
import EntrainDiscovery
import Logging

extension Run {
    /// The OSCQuery server and control page beside the OSC server (same address, same
    /// allowlist, by default the same port number over TCP), and the mDNS advertisement.
    /// `clientName`: the JACK client's name (`entrain-01` when `entrain` was taken), which the
    /// page, HOST_INFO and the advertisement carry.
    func startDiscovery(osc server: OSCServer, space: AddressSpace, clientName: String, logger: Logger) throws -> (DiscoveryServer, Advertisement?)? {
        let port = osc.queryPort ?? Int(server.address.port)
        guard port != 0 || osc.queryPort == nil else { return nil }
        let oscConfiguration = try osc.configuration()
        var configuration = DiscoveryServer.Configuration()
        configuration.bind = oscConfiguration.bind
        configuration.port = port
        configuration.oscPort = Int(server.address.port)
        configuration.name = clientName
        let discovery = DiscoveryServer(configuration: configuration, space: space, bridge: server.bridged, allows: { oscConfiguration.allow.allows($0) }, logger: logger)
        try discovery.start()
        let bound = discovery.port ?? port
        logger.info("OSCQuery on http://\(oscConfiguration.bind):\(bound)/ and the control page at http://\(oscConfiguration.bind):\(bound)/ui/")
        let advertisement = osc.advertise
            ? Advertisement.start(name: clientName, bind: oscConfiguration.bind, oscPort: Int(server.address.port), queryPort: bound, logger: logger) : nil
        return (discovery, advertisement)
    }
}
