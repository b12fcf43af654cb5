import Foundation

/// Python's `http.server` serving a folder on 127.0.0.1:`port`: a web site of another origin,
/// for tests of what a foreign page can do to the control server.
public final class LocalWebServer {
    public let port: Int
    private let process = Process()

    public init(folder: URL, port: Int) throws {
        self.port = port
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-m", "http.server", "\(port)", "--bind", "127.0.0.1", "--directory", folder.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while (try? HTTPTestClient.get(port: port, path: "/")) == nil {
            guard Date() < deadline, process.isRunning else {
                process.terminate()
                throw RawTCPConnection.Failure(description: "python3 -m http.server did not start on port \(port)")
            }
            usleep(50_000)
        }
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }
}
