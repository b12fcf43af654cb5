/// `/?HOST_INFO`: who we are, where OSC goes, and what of OSCQuery we support.
enum HostInfo {
    static func json(name: String, oscPort: Int) -> [String: Any] {
        [
            "NAME": name,
            "OSC_PORT": oscPort,
            "OSC_TRANSPORT": "UDP",
            "EXTENSIONS": [
                "ACCESS": true, "VALUE": true, "RANGE": true, "DESCRIPTION": true, "UNIT": true, "CLIPMODE": true,
                "LISTEN": true, "PATH_ADDED": true, "PATH_REMOVED": true,
                "PATH_CHANGED": false, "PATH_RENAMED": false, "TAGS": false, "EXTENDED_TYPE": false,
                "CRITICAL": false, "HTML": false, "OVERLOADS": false,
            ],
        ]
    }
}
